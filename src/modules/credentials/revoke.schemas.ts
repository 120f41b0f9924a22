/** Wire shapes of POST /tokens/revoke (spec "POST /tokens/revoke"; docs/decisions.md "Account and sessions"). */
import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';
import { MAX_REVOKE_SECRET_LENGTH } from './revoke.service.js';

/** Requests per client IP address per window (quality.md: rate limits on /tokens/revoke). */
export const REVOKE_RATE_LIMIT = { max: 10, timeWindow: '1 minute' } as const;

/** Documents the expected request; the route does not reject other JSON (see its description). */
export const RevokeRequest = Type.Object({
  token: Type.String({
    maxLength: MAX_REVOKE_SECRET_LENGTH,
    description:
      'The secret of the key or token to revoke, exactly as issued (surrounding whitespace is ignored)',
  }),
});

export const RevokeResult = Type.Union(
  [
    Type.Object(
      {
        success: Type.Literal(true),
        key_name: Type.String({ description: 'Name of the revoked key or token' }),
        owner_email: Nullable(
          Type.String({
            description:
              "Email of the key's owner; null when the owner's account is gone or for a legacy event key",
          }),
        ),
      },
      { description: 'The credential was active and is now revoked' },
    ),
    Type.Object(
      { success: Type.Literal(false) },
      { description: 'Nothing was revoked (the reason is not disclosed)' },
    ),
  ],
  { description: '`{success:true, key_name, owner_email}` or `{success:false}`' },
);
