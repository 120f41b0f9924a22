/**
 * The one error type of the API (architecture: "one error type, one handler"). Services throw
 * ApiError; the HTTP error handler turns it into `{error, ...extra}` with its status.
 */
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
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** PostgreSQL unique_violation (23505), e.g. a race on a unique index. */
export const isUniqueViolation = (error: unknown): boolean => pgErrorCode(error) === '23505';
