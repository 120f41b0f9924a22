/**
 * The rooming dry run (docs/rooming.md "Solver", "Reasons"): loads the inventory, the rules and the
 * people, and returns the solver's plan. Writes nothing. People whose `assigned_room` names no room
 * of the inventory keep it (with `keep_existing`) and are listed as unassigned with that reason.
 */
import type { Tx } from '../../db/client.js';
import type { UserEventCtx } from '../../deps.js';
import { loadPeople, type RoomingPerson } from './people.js';
import { loadRooms } from './rooms.repo.js';
import type { RoomJson } from './rooms.schemas.js';
import { loadRules } from './rules.service.js';
import { planRooms } from './solver/plan.js';
import type { Plan, RoomingRules, SolverRoom } from './solver/types.js';

export interface RoomingWorld {
  rooms: RoomJson[];
  solverRooms: SolverRoom[];
  people: RoomingPerson[];
  rules: RoomingRules;
}

export async function loadWorld(
  tx: Tx,
  event: { id: number; startsAt: string | null },
): Promise<RoomingWorld> {
  const rooms = await loadRooms(tx, event.id);
  const rules = await loadRules(tx, event.id);
  const solverRooms = rooms.map(({ occupants: _, venue: __, floor: ___, ...r }) => r);
  const people = await loadPeople(tx, event, solverRooms, rules);
  return { rooms, solverRooms, people, rules };
}

export type PlanJson = Omit<Plan, 'requests'> & {
  requests: Omit<Plan['requests'], 'unmet'> & {
    unmet: {
      participant_event_id: number;
      roommate_participant_event_id: number | null;
      mutual: boolean;
      reason: string;
    }[];
  };
};

export async function planRooming(ctx: UserEventCtx, input: { keep_existing?: boolean }): Promise<PlanJson> {
  const world = await loadWorld(ctx.db, ctx.access.event);
  const keep = input.keep_existing ?? true;
  const outside = keep
    ? world.people.filter((p) => p.assigned_room?.trim() && p.current_room_id === null)
    : [];
  const outsideIds = new Set(outside.map((p) => p.id));
  const plan = await planRooms(
    world.solverRooms,
    world.people.filter((p) => !outsideIds.has(p.id)),
    world.rules,
    { keepExisting: keep },
  );
  const unresolved = world.people.flatMap((p) =>
    p.unresolved
      .filter((u) => !u.exclusion)
      .map((u) => ({
        participant_event_id: p.id,
        roommate_participant_event_id: null,
        mutual: false,
        reason: u.reason,
      })),
  );
  return {
    assignments: plan.assignments,
    unassigned: [
      ...plan.unassigned,
      ...outside.map((p) => ({
        participant_event_id: p.id,
        reason: `Keeps assigned_room “${p.assigned_room!.trim()}”, which is not a room of the inventory`,
      })),
    ],
    requests: {
      ...plan.requests,
      total: plan.requests.total + unresolved.length,
      unmet: [...plan.requests.unmet, ...unresolved],
    },
  };
}
