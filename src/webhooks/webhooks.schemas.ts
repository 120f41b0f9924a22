/** Wire shapes of the inbound receivers (docs/decisions.md "Messaging"). Bodies are provider JSON, verified raw. */
import { Type } from 'typebox';

export const WebhookAck = Type.Object(
  {
    received: Type.Literal(true),
    duplicate: Type.Boolean({ description: 'true when this event id was already received (nothing done)' }),
  },
  { additionalProperties: false },
);

export const SlackChallenge = Type.Object(
  { challenge: Type.String() },
  { additionalProperties: false, description: 'Slack `url_verification`: the challenge echoed back' },
);

export const ProviderBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'The provider JSON, verified on its raw bytes (see description)',
  },
);
