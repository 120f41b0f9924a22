/**
 * Row helpers for query results (docs/architecture.md "Counts": no `rows[0]!`). `one()` returns
 * the first row a statement gave; when there is none it throws `RowNotFound`, an ApiError the
 * error handler answers with 404 and `{"error": message}`. Lookups pass their message
 * (`Registration not found`); statements that always return a row (INSERT … RETURNING, an
 * aggregate) use the default.
 */
import { ApiError } from '../lib/errors.js';

/** A row the caller looked for does not exist (404, `{"error": message}`). */
export class RowNotFound extends ApiError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

/** The first of `rows`; throws RowNotFound(`message`) when there is none. */
export function one<T>(rows: readonly T[], message?: string): T {
  const row = rows[0];
  if (row === undefined) throw new RowNotFound(message);
  return row;
}
