/**
 * The rooming solver's inputs and outputs (docs/rooming.md "Solver"). Plain data, no database:
 * the plan service loads these from the inventory, the rules and the participants' records.
 */
export type RoomType = 'single' | 'twin' | 'dorm';
export type Designation = 'female' | 'male' | 'any' | 'staff_only';
/** What a participant may be placed with: the designations of rooms they may sleep in. */
export type PersonDesignation = 'female' | 'male' | 'any';

export interface SolverRoom {
  id: number;
  name: string;
  capacity: number;
  type: RoomType;
  gender_designation: Designation;
  accessible: boolean;
  quiet: boolean;
  min_age: number | null;
  max_age: number | null;
  /** Nights the room is available (YYYY-MM-DD of the evening); null = every night. */
  nights: string[] | null;
}

export interface SolverPerson {
  id: number;
  name: string;
  /** Whole years at the event's start; null when the date of birth is unknown. */
  age: number | null;
  /** Room designations this person may be placed in (gender identity or the lead's choice). */
  designations: PersonDesignation[];
  needs_quiet: boolean;
  needs_accessible: boolean;
  /** Nights of the stay (check-in date up to the night before check-out); null = unknown. */
  nights: string[] | null;
  room_type: RoomType | null;
  exempt: boolean;
  /** The room this person is in now (from `assigned_room`), or null. */
  current_room_id: number | null;
  /** Registration ids this person asked to room with (resolved from their free text). */
  wants: number[];
  /** Registration ids this person must not room with. */
  excludes: number[];
}

/** The event's rooming rules (docs/rooming.md "Rules"); every field has a default. */
export interface RoomingRules {
  separate_minors_adults: boolean;
  adult_age: number;
  gender_designation: boolean;
  designation_choices: { participant_event_id: number; designations: PersonDesignation[] }[];
  max_age_gap: number | null;
  mutual_request_weight: number;
  one_way_request_weight: number;
  room_type_weight: number;
  match_quiet: boolean;
  match_accessibility: boolean;
  stay_within_nights: boolean;
  skip_rooming_exempt: boolean;
  publish_rooms: boolean;
}

export const DEFAULT_RULES: RoomingRules = {
  separate_minors_adults: true,
  adult_age: 18,
  gender_designation: true,
  designation_choices: [],
  max_age_gap: 3,
  mutual_request_weight: 10,
  one_way_request_weight: 2,
  room_type_weight: 1,
  match_quiet: true,
  match_accessibility: true,
  stay_within_nights: true,
  skip_rooming_exempt: true,
  publish_rooms: false,
};

export interface Assignment {
  participant_event_id: number;
  room_id: number;
}

export interface UnmetRequest {
  participant_event_id: number;
  roommate_participant_event_id: number;
  mutual: boolean;
  reason: string;
}

export interface Plan {
  assignments: Assignment[];
  unassigned: { participant_event_id: number; reason: string }[];
  requests: {
    met: number;
    total: number;
    mutual: { met: number; total: number; satisfiable: number };
    unmet: UnmetRequest[];
  };
}
