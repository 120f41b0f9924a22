/** Wire shapes of the audit trail (organiser API; docs/organiser-api.md "Audit trail"). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable } from '../../http/schema-helpers.js';

export const AuditLogQuery = Type.Object(
  {
    action: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Exact action (`groups.create`), or a prefix ending in `.` (`groups.`)',
      }),
    ),
    actor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 320,
        description: 'The acting user: email, UUID or numeric id',
      }),
    ),
    since: Type.Optional(
      Type.String({ maxLength: 64, description: 'ISO 8601 with a zone: entries created at or after it' }),
    ),
    before: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,15}$',
        description: 'Cursor: the `next_before` of the previous page (entries with smaller ids)',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);
export type AuditLogInput = Static<typeof AuditLogQuery>;

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  action: Type.String(),
  created_at: DateTime,
  actor: Nullable(
    Type.Object({ id: Type.Integer(), uuid: Type.String(), name: Type.String(), email: Type.String() }),
  ),
  credential_kind: Nullable(
    Type.String({
      description: 'mobile | global | series_key | event_key | cli | guardian_link | webhook | sign_in',
    }),
  ),
  credential_name: Nullable(Type.String()),
  event_id: Nullable(Type.Integer()),
  series_id: Nullable(Type.String()),
  target_type: Nullable(Type.String()),
  target_id: Nullable(Type.String()),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Identifiers, field names and counts only: keys outside an allow-list are omitted',
  }),
});
export type AuditEntryJson = Static<typeof AuditEntry>;

export const AuditPage = Type.Object({
  entries: Type.Array(AuditEntry),
  next_before: Nullable(
    Type.String({ description: 'Pass as `before` for the next (older) page; null on the last page' }),
  ),
});
export type AuditPageJson = Static<typeof AuditPage>;
