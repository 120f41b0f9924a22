/**
 * GET|PATCH /series/{s}/events/{e} (docs/decisions.md "Series, events and bans"): the event by id, UUID or slug within the series
 * (else 404); PATCH applies the create rules to the fields given, rejects unknown fields, merges
 * modules, reads zone-less times in the (new or current) timezone, audits and bumps updated_at.
 */
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../src/lib/time.js';
import { bearer, get, snapshotDb } from '../support/app.js';
import { query, withWorld } from './harness.js';

const env = withWorld();

const url = (event: string | number, series = 'summit-series') => `/api/v1/series/${series}/events/${event}`;

function patch(
  secret: string | undefined,
  event: Record<string, unknown>,
  target: string | number = 'summit-beta',
) {
  return env.t.app.inject({ method: 'PATCH', url: url(target), headers: bearer(secret), payload: { event } });
}

describe('GET /series/{series_id}/events/{event_id}', () => {
  it('returns Event (full) by id, UUID and slug; participant_count leaves out withdrawn and rejected', async () => {
    const bodies = [];
    for (const ref of [env.w.events.A.id, env.w.events.A.uuid, env.w.events.A.slug]) {
      const res = await get(env.t.app, url(ref), env.w.secrets.seriesKeyS1);
      expect(res.statusCode).toBe(200);
      bodies.push(res.json());
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    expect(bodies[0].event).toMatchObject({
      id: env.w.events.A.uuid,
      slug: 'summit-alpha',
      timezone: 'Europe/London',
      starts_at: '2026-07-10T08:00:00.000000Z',
      setup_complete: true,
      participant_count: 2,
      hotel_scan_context_id: null,
      series: { id: env.w.series.S1.id, slug: 'summit-series', name: 'Summit Series' },
    });
    expect(bodies[0].event.modules.travel_enabled).toBe(true);
  });

  it('404 for an event of another series, a missing event and a missing series (also with NUL)', async () => {
    expect((await get(env.t.app, url('summit%00alpha'), env.w.secrets.admin)).json()).toEqual({
      error: 'Event not found',
    });
    expect(
      (await get(env.t.app, url('summit-alpha', 'summit%00series'), env.w.secrets.admin)).statusCode,
    ).toBe(404);
    expect((await get(env.t.app, url('foreign-gamma'), env.w.secrets.admin)).json()).toEqual({
      error: 'Event not found',
    });
    expect((await get(env.t.app, url('nope'), env.w.secrets.admin)).statusCode).toBe(404);
    expect((await get(env.t.app, url('summit-alpha', 'nope'), env.w.secrets.admin)).json()).toEqual({
      error: 'Series not found',
    });
  });
});

describe('PATCH /series/{series_id}/events/{event_id}', () => {
  it('updates the fields given, merges modules, audits and bumps updated_at', async () => {
    const [before] = await query<{ u: string }>(
      env,
      'SELECT updated_at::text AS u FROM events WHERE id = $1',
      [env.w.events.B.id],
    );
    const res = await patch(env.w.secrets.seriesOwner, {
      name: ' Summit Beta Renamed ',
      venue_name: 'Leeds Hall',
      timezone: 'America/New_York',
      starts_at: '2026-06-01T09:00',
      modules: { groups_enabled: true },
      event_series_id: env.w.series.S1.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const e = res.json().event;
    expect(e).toMatchObject({
      name: 'Summit Beta Renamed',
      slug: 'summit-beta',
      venue_name: 'Leeds Hall',
      timezone: 'America/New_York',
      starts_at: '2026-06-01T13:00:00.000000Z', // EDT = UTC−4
      ends_at: '2026-06-03T17:00:00.000000Z',
      location_city: 'Leeds',
      support_email: 'beta@muster.example',
    });
    // Merged into B's own flags (NFC on, travel off), not reset to the defaults.
    expect(e.modules).toMatchObject({
      groups_enabled: true,
      nfc_badges_enabled: true,
      travel_enabled: false,
    });
    expect(e.updated_at > isoTimestamp(before!.u)!).toBe(true);
    const audit = await query(
      env,
      `SELECT actor_user_id, credential_kind, target_id, metadata FROM audit_log WHERE action = 'events.update'`,
    );
    expect(audit).toEqual([
      {
        actor_user_id: env.w.users.seriesOwner.id,
        credential_kind: 'mobile',
        target_id: String(env.w.events.B.id),
        metadata: {
          fields: ['name', 'venue_name', 'timezone', 'starts_at', 'modules'],
          modules: ['groups_enabled'],
        },
      },
    ]);
  });

  it('reads zone-less times in the event’s current zone; null clears a field; the own slug is fine', async () => {
    const res = await patch(
      env.w.secrets.seriesKeyS1,
      { ends_at: '2026-07-14T18:00:00', venue_name: null, slug: 'summit-alpha' },
      'summit-alpha',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().event).toMatchObject({ ends_at: '2026-07-14T17:00:00.000000Z', venue_name: null });
  });

  it('hotel_scan_context_id: a scan context of the event, not of another; null clears it', async () => {
    const uuidOf = async (id: number) =>
      (await query<{ uuid: string }>(env, 'SELECT uuid FROM scan_contexts WHERE id = $1', [id]))[0]!.uuid;
    const own = await uuidOf(env.w.contexts.pickupA);
    const foreign = await uuidOf(env.w.contexts.checkInB);
    const set = await patch(
      env.w.secrets.eventAdmin,
      { hotel_scan_context_id: own.toUpperCase() },
      'summit-alpha',
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().event.hotel_scan_context_id).toBe(own);
    const before = await snapshotDb(env.t.deps);
    const bad = await patch(env.w.secrets.eventAdmin, { hotel_scan_context_id: foreign }, 'summit-alpha');
    expect([bad.statusCode, bad.json()]).toEqual([
      422,
      { error: 'hotel_scan_context_id must name a scan context of this event' },
    ]);
    const malformed = await patch(
      env.w.secrets.eventAdmin,
      { hotel_scan_context_id: 'pickup' },
      'summit-alpha',
    );
    expect([malformed.statusCode, malformed.json()]).toEqual([
      422,
      { error: 'body.event.hotel_scan_context_id must match format "uuid"' },
    ]);
    expect(await snapshotDb(env.t.deps)).toEqual(before);
    const cleared = await patch(env.w.secrets.eventAdmin, { hotel_scan_context_id: null }, 'summit-alpha');
    expect(cleared.json().event.hotel_scan_context_id).toBeNull();
  });

  it('changes the slug; the old one is 404 afterwards', async () => {
    const res = await patch(env.w.secrets.admin, { slug: 'summit-beta-2026' });
    expect(res.statusCode).toBe(200);
    expect(res.json().event.slug).toBe('summit-beta-2026');
    expect((await get(env.t.app, url('summit-beta'), env.w.secrets.admin)).statusCode).toBe(404);
    const back = await patch(env.w.secrets.admin, { slug: 'summit-beta' }, 'summit-beta-2026');
    expect(back.statusCode).toBe(200);
  });

  it('`{event:{}}` changes nothing', async () => {
    const before = await snapshotDb(env.t.deps);
    const res = await patch(env.w.secrets.admin, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().event.slug).toBe('summit-beta');
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });

  const refusals: [string, Record<string, unknown>, number, string][] = [
    [
      'a foreign event_series_id',
      { name: 'x', event_series_id: 'foreign-series' },
      403,
      'event_series_id names another series; the series is decided by the API key',
    ],
    ['a taken slug', { slug: 'summit-alpha' }, 409, 'Event slug "summit-alpha" is already taken'],
    ['a reserved slug', { slug: 'new' }, 422, 'slug "new" is reserved'],
    ['a blank name', { name: ' ' }, 422, 'name cannot be blank'],
    ['a null name', { name: null }, 422, 'body.event.name must be string'],
    ['a null support_email', { support_email: null }, 422, 'body.event.support_email must be string'],
    [
      'a support_email off the operator domains',
      { support_email: 'x@example.com' },
      422,
      'support_email must use one of the operator domains (muster.example, events.muster.example); got example.com',
    ],
    [
      'an unknown timezone',
      { timezone: 'Europe/Atlantis' },
      422,
      'timezone must be an IANA time zone name such as Europe/London; got Europe/Atlantis',
    ],
    [
      'an end before the stored start',
      { ends_at: '2026-05-01T00:00:00Z' },
      422,
      'ends_at must not be before starts_at',
    ],
    ['a bad time', { starts_at: '2026-06-01T25:00' }, 422, 'starts_at must be an ISO 8601 date-time'],
    ['an unknown field', { participant_count: 3 }, 422, 'body.event: unknown field participant_count'],
    ['banner_url', { banner_url: 'https://x' }, 422, 'body.event: unknown field banner_url'],
  ];
  it.each(refusals)('refuses %s and changes nothing', async (_label, event, status, error) => {
    const before = await snapshotDb(env.t.deps);
    const res = await patch(env.w.secrets.seriesKeyS1, event);
    expect([res.statusCode, res.json()]).toEqual([status, { error }]);
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });
});
