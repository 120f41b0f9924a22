/**
 * Every foreign key has an index leading with its column, or is listed below with the reason it
 * has none. Without one, each delete of a parent row (and each cascade or SET NULL it triggers)
 * reads the whole child table: deleting 6,000 guardians took 0.63 ms each at 20,000 registrations
 * before `emergency_contacts.guardian_id` got its index (bench, pg_stat_statements), growing with
 * the table. A new foreign key without an index fails this test until it gets one or a reason.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/** `table.column` → why no index leads with it. */
const WITHOUT_INDEX: Record<string, string> = {
  // The check-in hot path: every index on scans costs every scan (bench/README.md "Check-in").
  // Contexts and users are deleted rarely (a context delete reads its scans by event first).
  'scans.scan_context_id': 'hot insert path; context deletes are rare admin actions',
  'scans.scanner_user_id': 'hot insert path; users are never deleted by the application',
  // Users are never deleted by the application (accounts are banned, tokens revoked).
  'event_api_keys.owner_user_id': 'users are never deleted',
  'series_api_keys.owner_user_id': 'users are never deleted',
  'global_api_tokens.user_id': 'users are never deleted; a handful of tokens',
  'bans.created_by_user_id': 'users are never deleted',
  'chat_blasts.sent_by_user_id': 'users are never deleted',
  'guardians.guardian_user_id': 'users are never deleted; guardians are read by registration',
  'invitations.invited_by_user_id': 'users are never deleted',
  'notes.author_user_id': 'users are never deleted',
  'announcements.created_by_user_id': 'users are never deleted',
  'email_templates.updated_by_user_id': 'users are never deleted',
  'rooming_overrides.by_user_id': 'users are never deleted; overrides are read by event',
  'authorization_codes.user_id': 'users are never deleted; codes live minutes',
  'authorization_codes.mobile_token_id': 'tokens are revoked, not deleted; codes live minutes',
  // Events, series and OAuth clients are not deleted by the application; keys are few per event.
  'event_api_keys.event_id': 'events are never deleted; a few keys per event',
  'series_api_keys.series_id': 'series are never deleted; a few keys per series',
  'email_log.event_id': 'events are never deleted; the log is read by address and message id',
  'notes.event_id': 'events are never deleted; notes are read by registration',
  'authorization_codes.client_id': 'OAuth clients are never deleted; codes live minutes',
  'sign_in_requests.client_id': 'OAuth clients are never deleted; requests live minutes',
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

describe('foreign keys', () => {
  it('each has an index leading with its column, or a stated reason not to', async () => {
    const res = await t.deps.db.execute<{ fk: string }>(sql`
      SELECT c.conrelid::regclass::text || '.' || a.attname AS fk
        FROM pg_constraint c
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
         AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1])
       ORDER BY 1`);
    expect(res.rows.map((r) => r.fk).sort()).toEqual(Object.keys(WITHOUT_INDEX).sort());
  });
});
