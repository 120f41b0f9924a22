/** Wire shapes of event and series roles (organiser API; docs/organiser-api.md "Team"). */
import { type Static, Type } from 'typebox';
import { DateTime } from '../../http/schema-helpers.js';

const Email = Type.String({
  minLength: 3,
  maxLength: 320,
  description: 'The person’s email (case-insensitive)',
});

export const GrantEventRoleRequest = Type.Object(
  {
    email: Email,
    role: Type.Union(
      ['event_admin', 'ops', 'safeguarding_lead', 'limited', 'read_only'].map((r) => Type.Literal(r)),
    ),
  },
  { additionalProperties: false },
);
export type GrantEventRoleInput = Static<typeof GrantEventRoleRequest>;

export const GrantSeriesRoleRequest = Type.Object(
  { email: Email, role: Type.Union([Type.Literal('owner'), Type.Literal('organizer')]) },
  { additionalProperties: false },
);
export type GrantSeriesRoleInput = Static<typeof GrantSeriesRoleRequest>;

export const RoleEntry = Type.Object({
  id: Type.Integer({ description: 'Role grant id (for DELETE)' }),
  role: Type.String(),
  user: Type.Object({ id: Type.Integer(), uuid: Type.String(), name: Type.String(), email: Type.String() }),
  created_at: DateTime,
});
export type RoleEntryJson = Static<typeof RoleEntry>;

export const RoleList = Type.Object({ roles: Type.Array(RoleEntry) });
export const GrantedRole = Type.Object({
  role: RoleEntry,
  user_created: Type.Boolean({ description: 'True when the account was created (and invited) now' }),
});

export const RoleIdParam = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'Role grant id (integer)',
});
