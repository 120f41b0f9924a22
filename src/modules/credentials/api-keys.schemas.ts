/** Wire shapes of a series' API keys (organiser API; docs/organiser-api.md "API keys"). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../../http/schema-helpers.js';

export const API_KEY_NAME_MAX = 100;

export const CreateApiKeyRequest = Type.Object(
  {
    name: Type.String({ maxLength: 10_000, description: `Trimmed; 1..${API_KEY_NAME_MAX} characters` }),
    kind: Type.Union([Type.Literal('series'), Type.Literal('event')], {
      description: '`series`: every event of the series; `event`: one event (`event_id` required)',
    }),
    event_id: Type.Optional(
      Type.Union([Type.Integer(), Type.String({ maxLength: 200 })], {
        description: 'For `kind: event`: numeric id, UUID or slug of an event of this series',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateApiKeyInput = Static<typeof CreateApiKeyRequest>;

export const ApiKey = Type.Object({
  id: Type.String({ description: 'Key UUID (for DELETE)' }),
  kind: Type.String({ description: 'series | event' }),
  name: Type.String(),
  event: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() })),
  owner: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() })),
  created_at: DateTime,
  last_used_at: NullableDateTime,
  revoked_at: NullableDateTime,
});
export type ApiKeyJson = Static<typeof ApiKey>;

export const ApiKeyList = Type.Object({ api_keys: Type.Array(ApiKey) });
export const CreatedApiKey = Type.Object({
  api_key: ApiKey,
  secret: Type.String({ description: 'The key itself: shown in this response only, never again' }),
});
export const ApiKeyParams = Type.Object({
  series_id: Type.String({ minLength: 1, maxLength: 200, description: 'Series UUID or slug' }),
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Key UUID' }),
});
