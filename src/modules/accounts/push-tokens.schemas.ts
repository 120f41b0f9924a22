/** Wire shapes of the push-token endpoints (docs/decisions.md "Account and sessions": "POST /push_tokens", "DELETE /push_tokens"). */
import { type Static, Type } from 'typebox';

/** Longest token accepted anywhere (FCM registration tokens are ~160 characters today). */
export const MAX_PUSH_TOKEN_LENGTH = 1024;

export const PUSH_PLATFORMS = ['expo', 'apns', 'fcm'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

const PushTokenString = Type.String({
  minLength: 1,
  maxLength: MAX_PUSH_TOKEN_LENGTH,
  description:
    'Expo (`ExponentPushToken[…]` / `ExpoPushToken[…]`), APNs (64 hex characters) or FCM registration token. Surrounding whitespace is ignored.',
});

export const RegisterPushTokenRequest = Type.Object({
  token: PushTokenString,
  platform: Type.Optional(
    Type.Union(
      [
        Type.Literal('expo'),
        Type.Literal('apns'),
        Type.Literal('fcm'),
        Type.Literal('ios'),
        Type.Literal('android'),
      ],
      {
        description:
          'Optional. The push service is recognised from the token itself and recorded; `expo`, `apns` or `fcm` must match it (else 422). `ios` and `android` (the device OS, as some apps send it) are accepted and not checked.',
      },
    ),
  ),
});
export type RegisterPushTokenInput = Static<typeof RegisterPushTokenRequest>;

export const DeletePushTokenRequest = Type.Object({ token: PushTokenString });

export const PushTokenParams = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: MAX_PUSH_TOKEN_LENGTH,
    description: 'The push token, URL-encoded (e.g. `ExponentPushToken%5Babc%5D`)',
  }),
});

export const PushTokenSuccess = Type.Object({ success: Type.Literal(true) });
