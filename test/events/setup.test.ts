/**
 * POST /events/{event_id}/setup/complete (docs/decisions.md "Series, events and bans"): sets setup_complete (a support email is
 * required, else 422), idempotent (a second call returns the same event, writes nothing), audited
 * with the credential; reachable by event managers and both key kinds within reach (docs/decisions.md "Credentials and roles").
 */
import { describe, expect, it } from 'vitest';
import { createEventRecord } from '../../src/modules/events/records.service.js';
import { bearer, snapshotDb } from '../support/app.js';
import { query, withWorld } from './harness.js';

const env = withWorld();

const complete = (secret: string | undefined, event: string | number, headers: Record<string, string> = {}) =>
  env.t.app.inject({
    method: 'POST',
    url: `/api/v1/events/${event}/setup/complete`,
    headers: { ...bearer(secret), ...headers },
  });

describe('POST /events/{event_id}/setup/complete', () => {
  it('completes a draft created through the API, once; a repeat returns the same event and writes nothing', async () => {
    const created = await env.t.app.inject({
      method: 'POST',
      url: '/api/v1/series/current/events',
      headers: bearer(env.w.secrets.seriesKeyS1),
      payload: { event: { name: 'Draft One', support_email: 'draft@muster.example' } },
    });
    expect(created.statusCode).toBe(201);
    const draft = created.json().event;
    expect(draft.setup_complete).toBe(false);

    const res = await complete(env.w.secrets.seriesKeyS1, draft.id, { 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(200);
    const done = res.json().event;
    expect(done).toEqual({ ...draft, setup_complete: true, updated_at: expect.any(String) });
    expect(done.updated_at > draft.updated_at).toBe(true);
    const [row] = await query<{ id: number }>(env, 'SELECT id FROM events WHERE uuid = $1', [draft.id]);
    const audit = await query(
      env,
      `SELECT actor_user_id, credential_kind, credential_name, metadata FROM audit_log
        WHERE action = 'events.setup_complete' AND event_id = $1`,
      [row!.id],
    );
    expect(audit).toEqual([
      {
        actor_user_id: env.w.users.seriesOwner.id,
        credential_kind: 'series_key',
        credential_name: 'S1 integration',
        metadata: { slug: 'draft-one' },
      },
    ]);

    const before = await snapshotDb(env.t.deps);
    const again = await complete(env.w.secrets.seriesOwner, row!.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ event: done });
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });

  it('an event API key completes its own event; an event_admin by mobile token too', async () => {
    await query(env, 'UPDATE events SET setup_complete = false WHERE id IN ($1, $2)', [
      env.w.events.A.id,
      env.w.events.B.id,
    ]);
    const byKey = await complete(env.w.secrets.eventKeyA, env.w.events.A.uuid);
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().event.setup_complete).toBe(true);
    const [audit] = await query(
      env,
      `SELECT actor_user_id, credential_kind FROM audit_log WHERE action = 'events.setup_complete' AND event_id = $1`,
      [env.w.events.A.id],
    );
    expect(audit).toEqual({ actor_user_id: env.w.users.eventAdmin.id, credential_kind: 'event_key' });

    await query(env, 'UPDATE events SET setup_complete = false WHERE id = $1', [env.w.events.A.id]);
    const byUser = await complete(env.w.secrets.eventAdmin, env.w.events.A.id);
    expect(byUser.statusCode).toBe(200);
    expect(byUser.json().event.setup_complete).toBe(true);
    // The event_admin of A cannot complete sibling B.
    expect((await complete(env.w.secrets.eventAdmin, env.w.events.B.id)).json()).toEqual({
      error: 'You do not have access to this event',
    });
  });

  it('422 without a support email, changing nothing', async () => {
    const d = await createEventRecord(env.t.deps.db, {
      seriesId: env.w.series.S1.id,
      name: 'No Email',
      supportEmail: null,
    });
    const before = await snapshotDb(env.t.deps);
    const res = await complete(env.w.secrets.admin, d.id);
    expect([res.statusCode, res.json()]).toEqual([
      422,
      { error: 'Set a support email before completing the setup' },
    ]);
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });

  it('a slug is 404 (only the participants endpoints take slugs)', async () => {
    const res = await complete(env.w.secrets.admin, 'summit-alpha');
    expect([res.statusCode, res.json()]).toEqual([404, { error: 'Event not found' }]);
  });

  it('concurrent calls on a draft: all 200, one audit entry', async () => {
    await query(env, 'UPDATE events SET setup_complete = false WHERE id = $1', [env.w.events.C.id]);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => complete(env.w.secrets.admin, env.w.events.C.id)),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(results.every((r) => r.json().event.setup_complete === true)).toBe(true);
    const rows = await query(
      env,
      `SELECT id FROM audit_log WHERE action = 'events.setup_complete' AND event_id = $1`,
      [env.w.events.C.id],
    );
    expect(rows).toHaveLength(1);
  });
});
