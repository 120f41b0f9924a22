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
