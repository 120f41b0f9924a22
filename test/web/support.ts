/**
 * Helpers for page tests through app.inject: a signed-in browser session (a mobile token sealed in
 * the session cookie, as /signin/callback sets it), CSRF tokens read from a page's form, and form
 * posts carrying both cookies.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Deps } from '../../src/deps.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { SESSION_COOKIE } from '../../src/modules/web/session.js';

export interface Browser {
  cookies: Record<string, string>;
}

/** A browser signed in as `userId` (returns also the raw token, to prove it never leaks). */
export async function signedInBrowser(deps: Deps, userId: number): Promise<Browser & { token: string }> {
  const issued = await deps.db.transaction((tx) =>
    issueMobileToken(tx, userId, { deviceName: 'Web browser' }),
  );
  return {
    token: issued.secret,
    cookies: { [SESSION_COOKIE]: deps.sealer.seal({ v: 1, t: issued.secret }) },
  };
}

export function anonymousBrowser(): Browser {
  return { cookies: {} };
}

function cookieHeader(b: Browser): string {
  return Object.entries(b.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

function remember(b: Browser, res: LightMyRequestResponse): void {
  for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
    const gone = c.value === '' || (c.expires && c.expires.getTime() < Date.now());
    if (gone) delete b.cookies[c.name];
    else b.cookies[c.name] = c.value;
  }
}

export async function getPage(
  app: FastifyInstance,
  b: Browser,
  url: string,
): Promise<LightMyRequestResponse> {
  const res = await app.inject({
    method: 'GET',
    url,
    headers: { accept: 'text/html', cookie: cookieHeader(b) },
  });
  remember(b, res);
  return res;
}

/** The `_csrf` hidden field of a page. */
export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`No CSRF field in page:\n${html.slice(0, 500)}`);
  return m[1]!;
}

/** POSTs a form (fields as given; `_csrf` from `fromPage` unless the fields carry one). */
export async function postForm(
  app: FastifyInstance,
  b: Browser,
  url: string,
  fields: Record<string, string | string[]>,
  csrf?: string,
): Promise<LightMyRequestResponse> {
  const body = new URLSearchParams();
  if (csrf !== undefined) body.append('_csrf', csrf);
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  const res = await app.inject({
    method: 'POST',
    url,
    headers: {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      cookie: cookieHeader(b),
    },
    payload: body.toString(),
  });
  remember(b, res);
  return res;
}
