/** Wire shapes of the sign-in routes (docs/decisions.md "Account and sessions"). */
import { Type } from 'typebox';
import { DateTime, ErrorBody } from '../../http/schema-helpers.js';
import { AccessibleEvent, Me } from '../accounts/accounts.schemas.js';
import { MAX_STATE_LENGTH, VERIFIER_PATTERN } from './authorize.service.js';
import { MAX_REDIRECT_URI_LENGTH } from './clients.service.js';

const Str = (description: string, maxLength: number) =>
  Type.Optional(Type.String({ maxLength, description }));

/** The client's authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3); checked by the handler. */
const clientRequestFields = {
  response_type: Str('Must be `code`.', 64),
  client_id: Str('A registered OAuth client, e.g. `muster-mobile`.', 64),
  redirect_uri: Str(
    'One of the client’s registered redirect URIs (exact match; a loopback http URI with any port).',
    MAX_REDIRECT_URI_LENGTH,
  ),
  code_challenge: Str('PKCE: base64url(SHA-256(code_verifier)), 43 characters.', 128),
  code_challenge_method: Str('Must be `S256`.', 16),
  state: Str('Opaque client value, returned unchanged with the code.', MAX_STATE_LENGTH + 1),
};

export const AuthorizeQuery = Type.Object(
  { ...clientRequestFields, scope: Str('Ignored.', 1000) },
  { additionalProperties: true },
);

export const EmailForm = Type.Object(
  { ...clientRequestFields, email: Str('The address to send the code to.', 320) },
  { additionalProperties: false },
);

export const VerifyForm = Type.Object(
  {
    request_id: Str('The hidden field of the code page.', 64),
    code: Str('The 6-digit code from the email (spaces ignored).', 32),
  },
  { additionalProperties: false },
);

export const UpstreamForm = Type.Object(clientRequestFields, { additionalProperties: false });

export const CallbackQuery = Type.Object(
  {
    code: Str('From the provider.', 2048),
    state: Str('From the provider.', 512),
    error: Str('From the provider.', 256),
  },
  { additionalProperties: true },
);

const OAUTH_FIELDS = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'device_name',
] as const;
/** Parameters a form-encoded token request may carry; others are ignored (RFC 6749 §3.2). */
export const TOKEN_REQUEST_FIELDS: ReadonlySet<string> = new Set(OAUTH_FIELDS);

/** POST /session body. `dev_email` exists only when MUSTER_DEV_SIGN_IN=true (otherwise it is an unknown field → 422). */
export function sessionBody(devSignIn: boolean) {
  const required = <T extends Parameters<typeof Type.Optional>[0]>(s: T) =>
    devSignIn ? Type.Optional(s) : s;
  return Type.Object(
    {
      grant_type: Type.Optional(
        Type.Literal('authorization_code', {
          description: 'Sent by OAuth client libraries; optional in JSON.',
        }),
      ),
      code: required(Type.String({ minLength: 1, maxLength: 256, description: 'The authorization code.' })),
      redirect_uri: required(
        Type.String({
          minLength: 1,
          maxLength: MAX_REDIRECT_URI_LENGTH,
          description: 'Exactly the redirect_uri of the authorization request.',
        }),
      ),
      code_verifier: required(
        Type.String({
          pattern: VERIFIER_PATTERN,
          description: 'PKCE verifier (RFC 7636: 43-128 characters of A-Z a-z 0-9 - . _ ~).',
        }),
      ),
      client_id: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, description: 'When sent, must be the code’s client.' }),
      ),
      device_name: Type.Optional(
        Type.String({ maxLength: 200, description: 'Label of the new mobile token (e.g. "Ada’s iPhone").' }),
      ),
      ...(devSignIn
        ? {
            dev_email: Type.Optional(
              Type.String({
                minLength: 3,
                maxLength: 320,
                description: 'Development only (MUSTER_DEV_SIGN_IN=true): sign in as this existing user.',
              }),
            ),
          }
        : {}),
    },
    { additionalProperties: false },
  );
}

export interface SessionInput {
  grant_type?: 'authorization_code';
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  client_id?: string;
  device_name?: string;
  dev_email?: string;
}

export const SessionResponse = Type.Object({
  token: Type.String({ description: 'The mobile token (shown once).' }),
  expires_at: DateTime,
  user: Type.Object({
    ...Me.properties,
    events: Type.Array(AccessibleEvent, { description: 'As GET /events.' }),
  }),
  access_token: Type.String({ description: 'Same as `token` (OAuth 2.0 token response).' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds until `expires_at`.' }),
});

export const HtmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String() } },
});

/** Errors of the page routes: an HTML page for browsers (`Accept: text/html`), `{error}` JSON otherwise. */
export const PageError = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String() }, 'application/json': { schema: ErrorBody } },
});

export const Redirect = (description: string) => ({ description, type: 'null' as const });
