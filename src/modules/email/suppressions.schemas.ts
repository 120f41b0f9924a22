/** Wire shapes of the email suppression list (GET|DELETE /email_suppressions; Muster's own, README "Provider webhooks"). */
import { Type } from 'typebox';
import { DateTime, Nullable } from '../../http/schema-helpers.js';

export const SuppressionQuery = Type.Object(
  {
    email: Type.Optional(
      Type.String({ minLength: 1, maxLength: 320, description: 'Address, case-insensitive exact match' }),
    ),
    before_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Paging: entries with a smaller id' }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  },
  { additionalProperties: false },
);

export const Suppression = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String({ description: 'Lower-cased address no email is sent to' }),
    reason: Type.String({ description: 'Why: the provider’s bounce type or complaint, e.g. `HardBounce`' }),
    email_log_id: Nullable(Type.Integer({ description: 'The email whose bounce or complaint added it' })),
    created_at: DateTime,
  },
  { additionalProperties: false },
);

export const SuppressionList = Type.Object(
  { email_suppressions: Type.Array(Suppression), has_more: Type.Boolean() },
  { additionalProperties: false },
);

export const SuppressionParams = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 320, description: 'The suppressed address (URL-encoded)' }),
});

export const SuppressionLifted = Type.Object(
  { success: Type.Literal(true), email: Type.String() },
  { additionalProperties: false },
);
