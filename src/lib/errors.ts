/**
 * The one error type of the API (architecture: "one error type, one handler"). Services throw
 * ApiError; the HTTP error handler turns it into `{error, ...extra}` with its status.
 */
import { numberProp, propOf, stringProp } from './narrow.js';
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const unauthorized = () => new ApiError(401, 'Unauthorized');
export const forbidden = (message = 'You do not have access to this resource') => new ApiError(403, message);
export const notFound = (message = 'Not found') => new ApiError(404, message);
export const unprocessable = (message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(422, message, extra);
export const badRequest = (message: string) => new ApiError(400, message);
export const conflict = (message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(409, message, extra);

/**
 * The PostgreSQL SQLSTATE of a database error, looked for along the `cause` chain (Drizzle wraps
 * the driver's error); undefined for anything else.
 */
export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = stringProp(current, 'code');
    if (code !== undefined && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = propOf(current, 'cause');
  }
  return undefined;
}

/** PostgreSQL unique_violation (23505), e.g. a race on a unique index. */
export const isUniqueViolation = (error: unknown): boolean => pgErrorCode(error) === '23505';

/**
 * PostgreSQL refuses some text the JSON schema allows: NUL characters (`\u0000`, SQLSTATE 22021 in
 * text, 22P05 in jsonb) and invalid byte sequences. Those are the caller's bad input (422), not a 500.
 */
const BAD_TEXT_SQLSTATES = new Set(['22021', '22P05']);

export const isBadTextError = (error: unknown): boolean => BAD_TEXT_SQLSTATES.has(pgErrorCode(error) ?? '');

/**
 * The HTTP status an error answers with, the same for the API, the pages and the sign-in pages
 * (docs/decisions.md "Status codes and check order"): an ApiError its own; schema validation 422; a body too large 413; an unreadable
 * body (wrong content type, malformed JSON) 400; text PostgreSQL cannot store 422; another error's
 * own 4xx/5xx `statusCode`; anything else 500.
 */
export function httpStatusOf(error: unknown): number {
  if (error instanceof ApiError) return error.statusCode;
  if (propOf(error, 'validation')) return 422;
  const code = stringProp(error, 'code') ?? '';
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 413;
  if (code.startsWith('FST_ERR_CTP') || error instanceof SyntaxError) return 400;
  if (isBadTextError(error)) return 422;
  const status = numberProp(error, 'statusCode') ?? 500;
  return status >= 400 && status <= 599 ? status : 500;
}
