/** Wire schemas of the outbound webhook routes (docs/webhooks.md "Outbound"). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../../http/schema-helpers.js';

export const EVENT_TYPES_MAX = 20;
export const DESCRIPTION_MAX = 500;

const Url = Type.String({ minLength: 1, maxLength: 2000, description: 'https URL of the receiver' });
const Description = Type.String({ maxLength: DESCRIPTION_MAX, description: 'What it is for (free text)' });
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
  minItems: 1,
  maxItems: EVENT_TYPES_MAX,
  description:
    'Event types it receives (see the document’s `webhooks` section); `ping` is always sent on request',
});

export const CreateWebhookRequest = Type.Object(
  { url: Url, description: Type.Optional(Description), event_types: EventTypes },
  { additionalProperties: false },
);
export type CreateWebhookInput = Static<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    event_types: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookInput = Static<typeof UpdateWebhookRequest>;

export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  description: Type.String(),
  event_types: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Nullable(
    Type.String({ description: 'Why Muster switched it off (null when on, or off by hand)' }),
  ),
  failing_since: Nullable(DateTime),
  previous_secret_expires_at: Nullable(DateTime),
  created_at: DateTime,
  updated_at: DateTime,
});
export type WebhookJson = Static<typeof Webhook>;

const WithSecret = Type.Object({
  ...Webhook.properties,
  secret: Type.String({ description: '`whsec_…`: shown only in this answer' }),
});
export const WebhookSecretBody = Type.Object({ webhook: WithSecret });
export const WebhookBody = Type.Object({ webhook: Webhook });
export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook) });

export const Attempt = Type.Object({
  attempt: Type.Integer({ description: '1 = the first attempt of this delivery' }),
  status_code: Nullable(Type.Integer({ description: 'HTTP status; null when no answer came' })),
  duration_ms: Type.Integer(),
  response_excerpt: Nullable(Type.String({ description: 'First 1,000 characters of the answer' })),
  error: Nullable(Type.String({ description: 'timeout, connection error or refused target' })),
  created_at: DateTime,
});

export const Delivery = Type.Object({
  id: Type.Integer(),
  webhook_id: Type.String({ description: 'The `webhook-id` header (`msg_…`), stable across retries' }),
  type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  next_attempt_at: NullableDateTime,
  delivered_at: NullableDateTime,
  created_at: DateTime,
  log: Type.Array(Attempt, { description: 'Its attempts, newest first (at most 10)' }),
});
export type DeliveryJson = Static<typeof Delivery>;
export const DeliveryList = Type.Object({ deliveries: Type.Array(Delivery), has_more: Type.Boolean() });
export const DeliveryBody = Type.Object({ delivery: Delivery });

export const DeliveryListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    before_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type DeliveryListInput = Static<typeof DeliveryListQuery>;
