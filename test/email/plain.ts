/**
 * What "an email a parent understands" must not contain (issue 16 item 10): an API path, a token
 * outside its link, an ISO 8601 timestamp, or a wire field name. Shared by the render and reminder tests.
 */
import { expect } from 'vitest';

export const ISO_8601 = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** Field names of the API that used to leak into emails. */
const FIELD_NAMES = /\b(expires_at|invitation_token|api_url|portal_url|accept_url|event_name|first_name)\b/;

/** Asserts one part (text or HTML) of an email is plain: `links` are the only places `tokens` may appear. */
export function expectPlain(part: string, opts: { links: string[]; tokens: string[] }) {
  expect(part).not.toContain('/api/');
  expect(part).not.toMatch(ISO_8601);
  expect(part).not.toMatch(FIELD_NAMES);
  expect(part).not.toContain('{{');
  let rest = part;
  for (const link of opts.links) rest = rest.split(link).join('');
  for (const token of opts.tokens) expect(rest).not.toContain(token);
}
