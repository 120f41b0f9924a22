/**
 * TypeBox shapes of the web pages. Page routes are hidden from the OpenAPI document (they answer
 * browsers with HTML, not API clients with JSON; README "Web pages" documents them), but every one
 * still validates its params, query and body. Form bodies are permissive records of strings: the
 * services validate each field and the page re-renders with the messages (422), never a 500.
 */
import { Type } from 'typebox';

export const HtmlPage = Type.String({ description: 'An HTML page' });

/** Any form post: string fields (a repeated name becomes a list), `_csrf` included. */
export const FormBody = Type.Record(
  Type.String({ maxLength: 200 }),
  Type.Union([
    Type.String({ maxLength: 10_000 }),
    Type.Array(Type.String({ maxLength: 10_000 }), { maxItems: 50 }),
  ]),
  { maxProperties: 300 },
);
export type FormBody = Record<string, string | string[]>;

/** The CSRF-only form of a button (sign out, submit, complete). */
export const CsrfForm = Type.Object(
  { _csrf: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

export const NextQuery = Type.Object(
  { next: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);

export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 200 })),
    state: Type.Optional(Type.String({ maxLength: 2000 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);

const html = (description: string) => ({ description, content: { 'text/html': { schema: HtmlPage } } });
const redirect = (description: string) => ({ description, type: 'null' as const });

/** Responses of a page route: the page, a redirect, or an error page. */
export const pageResponses = {
  200: html('The page'),
  302: redirect('Redirect (e.g. to sign in)'),
  303: redirect('Redirect after a successful form post'),
  ...Object.fromEntries([400, 403, 404, 409, 410, 413, 422, 429].map((s) => [s, html('Error page')])),
};

/** Per-IP limit on the pages whose URL or form carries a token (invitation, guardian link). */
export const PAGE_RATE_LIMIT = { max: 120, timeWindow: 60_000 } as const;
