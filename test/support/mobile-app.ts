/**
 * Requests exactly as the deployed mobile app sends them (shared/design/mobile-app.md §1):
 * `Content-Type: application/json` and `Accept: application/json` on every request, GET and DELETE
 * included, and the bearer token when one is stored. No other headers.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export type AppMethod = 'GET' | 'POST' | 'DELETE';

/** The app's headers for a stored `token` (none when undefined). */
export function appHeaders(token: string | undefined): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json',
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  };
}

/** `app.inject()` of `/api/v1<path>` with the app's headers and, if given, a JSON body. */
export function appInject(
  app: FastifyInstance,
  token: string | undefined,
  method: AppMethod,
  path: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/api/v1${path}`,
    headers: appHeaders(token),
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
