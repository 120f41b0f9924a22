/** Wire shapes of event groups and group membership (organiser API, docs/organiser-api.md). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, numericIdParam } from '../../http/schema-helpers.js';

export const GROUP_NAME_MAX = 100;
export const MAX_GROUPS_PER_ASSIGNMENT = 100;

const Name = Type.String({ maxLength: 10_000, description: `Trimmed; 1..${GROUP_NAME_MAX} characters` });
const Color = Nullable(
  Type.String({ maxLength: 100, description: 'Display colour `#RRGGBB` (hex, case-insensitive), or null' }),
);

export const CreateGroupRequest = Type.Object(
  { name: Name, color: Type.Optional(Color) },
  { additionalProperties: false },
);
export type CreateGroupInput = Static<typeof CreateGroupRequest>;

export const UpdateGroupRequest = Type.Object(
  { name: Type.Optional(Name), color: Type.Optional(Color) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateGroupInput = Static<typeof UpdateGroupRequest>;

export const Group = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  color: Nullable(Type.String({ description: '`#RRGGBB` (upper case) or null' })),
  member_count: Type.Integer({ description: 'Registrations assigned to the group' }),
  created_at: DateTime,
  updated_at: DateTime,
});
export type GroupJson = Static<typeof Group>;

export const GroupBody = Type.Object({ group: Group });
export const GroupList = Type.Object({ groups: Type.Array(Group) });

export const GroupIdParams = Type.Object({
  event_id: Type.String({ minLength: 1, maxLength: 200, description: 'Numeric event id or event UUID' }),
  id: numericIdParam('Group id (integer)'),
});
export const MembershipParams = Type.Object({
  event_id: Type.String({ minLength: 1, maxLength: 200, description: 'Numeric event id or event UUID' }),
  participant_event_id: numericIdParam('Registration id'),
});

export const SetGroupsRequest = Type.Object(
  {
    group_ids: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), {
      maxItems: MAX_GROUPS_PER_ASSIGNMENT,
      description: 'The complete set of groups of the registration (replaces it); [] removes all',
    }),
  },
  { additionalProperties: false },
);
export type SetGroupsInput = Static<typeof SetGroupsRequest>;

export const MembershipBody = Type.Object({
  participant_event_id: Type.Integer(),
  groups: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), color: Nullable(Type.String()) }),
  ),
});
