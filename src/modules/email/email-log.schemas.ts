/** Wire shapes of GET /email_log (docs/decisions.md "Messaging"; Muster's own read of the email log). */
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../../http/schema-helpers.js';

export const EMAIL_LOG_STATUSES = [
  'queued',
  'sent',
  'failed',
  'suppressed',
  'delivered',
  'bounced',
  'opened',
] as const;

export const EmailLogQuery = Type.Object(
  {
    email: Type.Optional(
      Type.String({ minLength: 1, maxLength: 320, description: 'Recipient, case-insensitive exact match' }),
    ),
    status: Type.Optional(Type.Union(EMAIL_LOG_STATUSES.map((s) => Type.Literal(s)))),
    event_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Numeric event id' }),
    ),
    before_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Paging: entries with a smaller id' }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  },
  { additionalProperties: false },
);

export const EmailLogEntry = Type.Object(
  {
    id: Type.Integer(),
    to_email: Type.String(),
    from_email: Type.String(),
    template: Type.String(),
    subject: Type.String(),
    status: Type.String({ description: EMAIL_LOG_STATUSES.join(' | ') }),
    event_id: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    address_suppressed: Type.Boolean({
      description: 'The recipient is on the suppression list (hard bounce or complaint)',
    }),
    created_at: DateTime,
    sent_at: NullableDateTime,
    delivered_at: NullableDateTime,
    opened_at: NullableDateTime,
    bounced_at: NullableDateTime,
  },
  { additionalProperties: false },
);

export const EmailLogBody = Type.Object(
  { email_log: Type.Array(EmailLogEntry), has_more: Type.Boolean() },
  { additionalProperties: false },
);
