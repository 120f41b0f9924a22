/** Wire shapes of an event's room inventory (docs/rooming.md "Inventory"). */
import { type Static, Type } from 'typebox';
import { Nullable, numericIdParam } from '../../http/schema-helpers.js';

export const ROOM_NAME_MAX = 100;
export const ROOM_CAPACITY_MAX = 50;
export const MAX_ROOMS_PER_IMPORT = 2000;

const Text = (max: number, description: string) =>
  Type.String({ maxLength: 10_000, description: `${description}; at most ${max} characters` });
const Age = Nullable(Type.Integer({ minimum: 0, maximum: 120 }));
const Night = Type.String({ maxLength: 10, description: 'A night as the date of its evening, YYYY-MM-DD' });

const fields = {
  name: Text(
    ROOM_NAME_MAX,
    'Trimmed; unique in the event case-insensitively; what `accommodation.assigned_room` holds',
  ),
  venue: Nullable(Text(100, 'Building or venue')),
  floor: Nullable(Text(50, 'Floor label')),
  capacity: Type.Integer({ minimum: 1, maximum: ROOM_CAPACITY_MAX, description: 'Beds' }),
  type: Type.Union([Type.Literal('single'), Type.Literal('twin'), Type.Literal('dorm')], {
    description: '`single` holds 1, `twin` 2, `dorm` 2 or more',
  }),
  gender_designation: Type.Union(
    [Type.Literal('female'), Type.Literal('male'), Type.Literal('any'), Type.Literal('staff_only')],
    {
      description:
        'Who may sleep there (docs/rooming.md "Rules"); `staff_only` rooms are never given to participants by the solver',
    },
  ),
  accessible: Type.Boolean(),
  quiet: Type.Boolean(),
  min_age: Age,
  max_age: Age,
  nights: Nullable(
    Type.Array(Night, {
      maxItems: 366,
      description: 'Nights the room is available; null = every night of the event',
    }),
  ),
};

export const CreateRoomRequest = Type.Object(
  {
    name: fields.name,
    venue: Type.Optional(fields.venue),
    floor: Type.Optional(fields.floor),
    capacity: fields.capacity,
    type: fields.type,
    gender_designation: fields.gender_designation,
    accessible: Type.Optional(fields.accessible),
    quiet: Type.Optional(fields.quiet),
    min_age: Type.Optional(fields.min_age),
    max_age: Type.Optional(fields.max_age),
    nights: Type.Optional(fields.nights),
  },
  { additionalProperties: false },
);
export type CreateRoomInput = Static<typeof CreateRoomRequest>;

export const UpdateRoomRequest = Type.Partial(CreateRoomRequest, {
  additionalProperties: false,
  minProperties: 1,
});
export type UpdateRoomInput = Static<typeof UpdateRoomRequest>;

export const Occupant = Type.Object({
  participant_event_id: Type.Integer(),
  display_name: Type.String(),
});

export const Room = Type.Object({
  id: Type.Integer(),
  ...fields,
  venue: Nullable(Type.String()),
  floor: Nullable(Type.String()),
  name: Type.String(),
  occupants: Type.Array(Occupant, {
    description: 'Registrations whose `assigned_room` is this room, by name',
  }),
});
export type RoomJson = Static<typeof Room>;

export const RoomBody = Type.Object({ room: Room });
export const RoomList = Type.Object({ rooms: Type.Array(Room) });

export const RoomIdParams = Type.Object({
  event_id: Type.String({ minLength: 1, maxLength: 200, description: 'Numeric event id or event UUID' }),
  id: numericIdParam('Room id (integer)'),
});

export const ImportRoomsRequest = Type.Object(
  {
    csv: Type.String({
      maxLength: 2_000_000,
      description:
        'CSV with a header row: `name,venue,floor,capacity,type,gender_designation,accessible,quiet,min_age,max_age,nights` (only `name`, `capacity`, `type`, `gender_designation` required; booleans `true`/`false`/`yes`/`no`/`1`/`0`; `nights` dates separated by spaces or `;`, empty = every night)',
    }),
  },
  { additionalProperties: false },
);
export const ImportRoomsResult = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  rooms: Type.Array(Room),
});
