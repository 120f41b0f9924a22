/**
 * Identifier and address formats shared by the access layer, services and route schemas: one UUID
 * pattern, one email pattern (the loose check the API has always applied: something@something.tld,
 * no spaces), one email normalisation, and one schema for a numeric id in the path.
 */
import { Type } from 'typebox';

/** A UUID in its canonical 8-4-4-4-12 hex form, any case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An email address as the API accepts it: no spaces, one `@`, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** How every email is compared and stored: trimmed, lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A numeric id in the path, taken as text (≤ 20 characters) so that the service or the gate
 * answers a malformed one with its own 404 message rather than a validation error.
 */
export const PathIdParam = (description: string) => Type.String({ maxLength: 20, description });
