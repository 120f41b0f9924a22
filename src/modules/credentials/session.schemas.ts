/**
 * Wire shapes of the mobile session endpoints (spec "POST /session/refresh"; docs/decisions.md "Account and sessions").
 * `SessionBody` is the token result shared with POST /session (spec "Token result: see POST
 * /session/refresh"): `user` is the spec's five fields plus `is_organizer` and `is_participant`
 * (the `/me` fields), identical to POST /session's `user` (docs/decisions.md "Account and sessions").
 */
import { Type } from 'typebox';
import { DateTime } from '../../http/schema-helpers.js';
import { AccessibleEvent } from '../accounts/accounts.schemas.js';

export const SessionUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  global_admin: Type.Boolean(),
  is_organizer: Type.Boolean(),
  is_participant: Type.Boolean(),
  events: Type.Array(AccessibleEvent, {
    description: 'Accessible-event entries, as GET /events returns them',
  }),
});

export const SessionBody = Type.Object({
  token: Type.String({
    description: 'The new mobile token (shown only in this response; only its SHA-256 digest is stored)',
  }),
  expires_at: DateTime,
  user: SessionUser,
});

export const SuccessBody = Type.Object({ success: Type.Literal(true) });
