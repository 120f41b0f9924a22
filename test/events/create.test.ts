/**
 * POST /series/{s}/events (spec "Series and events"; contract §7, §9): series key only, the series
 * from the key, foreign `event_series_id` 403, required fields, operator domains, slug rules, IANA
 * timezone, zone-less times in the event's zone, unknown fields 422, defaults (draft, check-in
 * context, modules), key owner's event_admin, audit naming the key, 201 `{event: Event (full)}`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { issueSeriesKey } from '../../src/modules/credentials/issue.service.js';
import { bearer, snapshotDb } from '../support/app.js';
import { query, withWorld } from './harness.js';

const env = withWorld();
let adminKey: string;

beforeAll(async () => {
  adminKey = (
    await issueSeriesKey(env.t.deps.db, env.w.series.S1.id, {
      name: 'Admin-owned',
      ownerUserId: env.w.users.admin.id,
    })
  ).secret;
}, 60_000);

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

function create(secret: string | undefined, event: Record<string, unknown>, series = 'current') {
  return env.t.app.inject({
    method: 'POST',
    url: `/api/v1/series/${series}/events`,
    headers: bearer(secret),
    payload: { event },
  });
}

describe('POST /series/{series_id}/events', () => {
  it('creates a draft with defaults, the check-in context, event_admin for the owner and an audit entry', async () => {
    const res = await create(env.w.secrets.seriesKeyS1, {
      name: '  Summit Gamma 2026 ',
      support_email: ' Help@Events.MUSTER.example ',
    });
    expect(res.statusCode, res.body).toBe(201);
    const event = res.json().event;
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: 'summit-gamma-2026',
      name: 'Summit Gamma 2026',
      series: { id: env.w.series.S1.id, slug: 'summit-series', name: 'Summit Series' },
      support_email: 'help@events.muster.example',
      timezone: 'UTC',
      starts_at: null,
      ends_at: null,
      registration_open_at: null,
      registration_close_at: null,
      venue_name: null,
      location_city: null,
      location_country: null,
      location_address: null,
      location_latitude: null,
      location_longitude: null,
      setup_complete: false,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      modules: {
        freedom_waivers_enabled: true,
        travel_enabled: true,
        visa_options_enabled: true,
        accommodation_enabled: true,
        roommate_preferences_enabled: true,
        guardian_invites_locked: false,
        nfc_badges_enabled: false,
        nfc_badge_write_on_checkin_enabled: false,
        groups_enabled: false,
        visa_application_url: null,
      },
      hotel_scan_context_id: null,
      participant_count: 0,
    });
    const [row] = await query<{ id: number }>(env, 'SELECT id FROM events WHERE uuid = $1', [event.id]);
    expect(
      await query(env, 'SELECT name, checks_in FROM scan_contexts WHERE event_id = $1', [row!.id]),
    ).toEqual([{ name: 'Event check-in', checks_in: true }]);
    expect(await query(env, 'SELECT user_id, role FROM event_roles WHERE event_id = $1', [row!.id])).toEqual([
      { user_id: env.w.users.seriesOwner.id, role: 'event_admin' },
    ]);
    const audit = await query(
      env,
      `SELECT actor_user_id, credential_kind, credential_name, event_id, series_id, target_type, metadata
         FROM audit_log WHERE action = 'events.create' AND event_id = $1`,
      [row!.id],
    );
    const [key] = await query<{ id: number }>(
      env,
      `SELECT id FROM series_api_keys WHERE name = 'S1 integration'`,
    );
    expect(audit).toEqual([
      {
        actor_user_id: env.w.users.seriesOwner.id,
        credential_kind: 'series_key',
        credential_name: 'S1 integration',
        event_id: row!.id,
        series_id: env.w.series.S1.id,
        target_type: 'event',
        metadata: {
          slug: 'summit-gamma-2026',
          series_api_key_name: 'S1 integration',
          series_api_key_id: String(key!.id),
          granted_event_admin_user_id: env.w.users.seriesOwner.id,
        },
      },
    ]);
  });

  it('accepts every schedule, location and module field; zone-less times are read in the timezone', async () => {
    const res = await create(
      env.w.secrets.seriesKeyS2,
      {
        name: 'Lisbon Camp',
        support_email: 'camp@muster.example',
        slug: 'lisbon-camp',
        timezone: 'europe/lisbon',
        starts_at: '2026-07-10T09:00',
        ends_at: '2026-07-14T17:30:00',
        registration_open_at: '2026-03-01',
        registration_close_at: '2026-06-01T12:00:00+02:00',
        venue_name: 'Quinta',
        location_city: 'Lisbon',
        location_country: 'PT',
        location_address: ' Rua 1 ',
        location_latitude: 38.72,
        location_longitude: -9.14,
        modules: {
          nfc_badges_enabled: true,
          travel_enabled: false,
          visa_application_url: 'https://visa.example/apply',
        },
        event_series_id: env.w.series.S2.slug,
      },
      env.w.series.S2.id,
    );
    expect(res.statusCode, res.body).toBe(201);
    const e = res.json().event;
    expect(e).toMatchObject({
      slug: 'lisbon-camp',
      timezone: 'Europe/Lisbon',
      starts_at: '2026-07-10T08:00:00.000000Z', // WEST = UTC+1
      ends_at: '2026-07-14T16:30:00.000000Z',
      registration_open_at: '2026-03-01T00:00:00.000000Z', // WET = UTC+0
      registration_close_at: '2026-06-01T10:00:00.000000Z',
      venue_name: 'Quinta',
      location_city: 'Lisbon',
      location_country: 'PT',
      location_address: 'Rua 1',
      location_latitude: 38.72,
      location_longitude: -9.14,
      series: { id: env.w.series.S2.id, slug: 'foreign-series', name: 'Foreign Series' },
    });
    expect(e.modules).toMatchObject({
      nfc_badges_enabled: true,
      travel_enabled: false,
      freedom_waivers_enabled: true,
      visa_application_url: 'https://visa.example/apply',
    });
    // S2's key has no owner: no role granted; the audit entry has no actor but names the key.
    const rows = await query<{ id: number }>(env, `SELECT id FROM events WHERE slug = 'lisbon-camp'`);
    expect(await query(env, 'SELECT * FROM event_roles WHERE event_id = $1', [rows[0]!.id])).toEqual([]);
    const [audit] = await query<{ actor_user_id: number | null; metadata: Record<string, unknown> }>(
      env,
      `SELECT actor_user_id, metadata FROM audit_log WHERE action = 'events.create' AND event_id = $1`,
      [rows[0]!.id],
    );
    expect(audit!.actor_user_id).toBeNull();
    expect(audit!.metadata.series_api_key_name).toBe('S2 integration');
  });

  it('does not grant event_admin to a key owner who is a global admin', async () => {
    const res = await create(adminKey, { name: 'Admin Owned', support_email: 'a@muster.example' });
    expect(res.statusCode).toBe(201);
    const [row] = await query<{ id: number }>(env, 'SELECT id FROM events WHERE uuid = $1', [
      res.json().event.id,
    ]);
    expect(await query(env, 'SELECT * FROM event_roles WHERE event_id = $1', [row!.id])).toEqual([]);
    const [audit] = await query<{ actor_user_id: number }>(
      env,
      `SELECT actor_user_id FROM audit_log WHERE action = 'events.create' AND event_id = $1`,
      [row!.id],
    );
    expect(audit!.actor_user_id).toBe(env.w.users.admin.id);
  });

  it('generates unique slugs from the name', async () => {
    const a = await create(env.w.secrets.seriesKeyS1, {
      name: 'Summit Alpha',
      support_email: 'a@muster.example',
    });
    const b = await create(env.w.secrets.seriesKeyS1, {
      name: 'Summit Alpha',
      support_email: 'a@muster.example',
    });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect([a.json().event.slug, b.json().event.slug]).toEqual(['summit-alpha-2', 'summit-alpha-3']);
    const accents = await create(env.w.secrets.seriesKeyS1, {
      name: 'Ça Ira! Été — 2026',
      support_email: 'a@muster.example',
    });
    expect(accents.json().event.slug).toBe('ca-ira-ete-2026');
  });
});

describe('POST /series/{series_id}/events refusals', () => {
  const valid = { name: 'Refused', support_email: 'x@muster.example' };
  const cases: [string, () => Promise<{ statusCode: number; json(): unknown }>, number, object][] = [
    [
      'a mobile token',
      () => create(env.w.secrets.admin, valid, env.w.series.S1.id),
      403,
      { error: 'Creating an event requires a series API key' },
    ],
    [
      'a mobile token with current (kind before 400)',
      () => create(env.w.secrets.seriesOwner, valid),
      403,
      { error: 'Creating an event requires a series API key' },
    ],
    [
      'a global token',
      () => create(env.w.secrets.globalToken, valid, env.w.series.S1.slug),
      403,
      { error: 'Creating an event requires a series API key' },
    ],
    [
      'an event key',
      () => create(env.w.secrets.eventKeyA, valid, env.w.series.S1.slug),
      403,
      { error: 'Creating an event requires a series API key' },
    ],
    [
      'a scoped token',
      () => create(env.w.secrets.scopedToken, valid, env.w.series.S1.slug),
      403,
      { error: 'This token is limited to: bans:write' },
    ],
    ['no credential', () => create(undefined, valid), 401, { error: 'Unauthorized' }],
    [
      'another series in the path',
      () => create(env.w.secrets.seriesKeyS1, valid, env.w.series.S2.slug),
      403,
      { error: 'This API key cannot access this series' },
    ],
    [
      'a missing series',
      () => create(env.w.secrets.seriesKeyS1, valid, 'no-such-series'),
      404,
      { error: 'Series not found' },
    ],
    [
      'a foreign event_series_id',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, event_series_id: env.w.series.S2.id }),
      403,
      { error: 'event_series_id names another series; the series is decided by the API key' },
    ],
    [
      'an unknown event_series_id',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, event_series_id: 'nope' }),
      403,
      { error: 'event_series_id names another series; the series is decided by the API key' },
    ],
    [
      'foreign event_series_id before missing fields',
      () => create(env.w.secrets.seriesKeyS1, { event_series_id: env.w.series.S2.slug }),
      403,
      { error: 'event_series_id names another series; the series is decided by the API key' },
    ],
    [
      'no name nor support_email',
      () => create(env.w.secrets.seriesKeyS1, {}),
      422,
      { error: 'Missing required fields: name, support_email' },
    ],
    [
      'a blank name',
      () => create(env.w.secrets.seriesKeyS1, { name: '  ', support_email: 'x@muster.example' }),
      422,
      { error: 'Missing required fields: name' },
    ],
    [
      'no support_email',
      () => create(env.w.secrets.seriesKeyS1, { name: 'X' }),
      422,
      { error: 'Missing required fields: support_email' },
    ],
    [
      'a support_email off the operator domains',
      () => create(env.w.secrets.seriesKeyS1, { name: 'X', support_email: 'x@gmail.com' }),
      422,
      {
        error:
          'support_email must use one of the operator domains (muster.example, events.muster.example); got gmail.com',
      },
    ],
    [
      'a subdomain of an operator domain',
      () => create(env.w.secrets.seriesKeyS1, { name: 'X', support_email: 'x@evil.muster.example' }),
      422,
      {
        error:
          'support_email must use one of the operator domains (muster.example, events.muster.example); got evil.muster.example',
      },
    ],
    [
      'a look-alike suffix',
      () => create(env.w.secrets.seriesKeyS1, { name: 'X', support_email: 'x@muster.example.evil.com' }),
      422,
      {
        error:
          'support_email must use one of the operator domains (muster.example, events.muster.example); got muster.example.evil.com',
      },
    ],
    [
      'a malformed support_email',
      () => create(env.w.secrets.seriesKeyS1, { name: 'X', support_email: 'not-an-email' }),
      422,
      { error: 'support_email is not a valid email address: not-an-email' },
    ],
    [
      'a bad slug',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, slug: 'Bad Slug' }),
      422,
      { error: 'slug must contain only lowercase letters, digits and single dashes' },
    ],
    [
      'a reserved slug',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, slug: 'current' }),
      422,
      { error: 'slug "current" is reserved' },
    ],
    [
      'an all-digit slug',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, slug: '2026' }),
      422,
      { error: 'slug cannot be only digits' },
    ],
    [
      'a name that gives a reserved slug',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, name: 'Events' }),
      422,
      { error: 'Cannot derive a slug from the name (slug "events" is reserved); send a slug' },
    ],
    [
      'a taken slug',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, slug: 'foreign-gamma' }),
      409,
      { error: 'Event slug "foreign-gamma" is already taken' },
    ],
    [
      'an unknown timezone',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, timezone: 'Mars/Olympus' }),
      422,
      { error: 'timezone must be an IANA time zone name such as Europe/London; got Mars/Olympus' },
    ],
    [
      'an offset as timezone',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, timezone: '+01:00' }),
      422,
      { error: 'timezone must be an IANA time zone name such as Europe/London; got +01:00' },
    ],
    [
      'a bad date-time',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, starts_at: '2026-02-30T10:00' }),
      422,
      { error: 'starts_at must be an ISO 8601 date-time' },
    ],
    [
      'a non-ISO date-time',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, ends_at: 'next tuesday' }),
      422,
      { error: 'ends_at must be an ISO 8601 date-time' },
    ],
    [
      'an end before the start',
      () =>
        create(env.w.secrets.seriesKeyS1, {
          ...valid,
          starts_at: '2026-07-10T10:00Z',
          ends_at: '2026-07-09T10:00Z',
        }),
      422,
      { error: 'ends_at must not be before starts_at' },
    ],
    [
      'registration closing before it opens',
      () =>
        create(env.w.secrets.seriesKeyS1, {
          ...valid,
          registration_open_at: '2026-05-01',
          registration_close_at: '2026-04-01',
        }),
      422,
      { error: 'registration_close_at must not be before registration_open_at' },
    ],
    [
      'an unknown field',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, colour: 'red' }),
      422,
      { error: 'body.event: unknown field colour' },
    ],
    [
      'logo_url (dashboard only)',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, logo_url: 'https://x' }),
      422,
      { error: 'body.event: unknown field logo_url' },
    ],
    [
      'series (decided by the key)',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, series: { id: env.w.series.S1.id } }),
      422,
      { error: 'body.event: unknown field series' },
    ],
    [
      'setup_complete',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, setup_complete: true }),
      422,
      { error: 'body.event: unknown field setup_complete' },
    ],
    [
      'an unknown module',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, modules: { chat_enabled: true } }),
      422,
      { error: 'body.event.modules: unknown field chat_enabled' },
    ],
    [
      'a non-boolean module',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, modules: { travel_enabled: 'yes' } }),
      422,
      { error: 'body.event.modules.travel_enabled must be boolean' },
    ],
    [
      'a bad visa URL',
      () =>
        create(env.w.secrets.seriesKeyS1, {
          ...valid,
          modules: { visa_application_url: 'javascript:alert(1)' },
        }),
      422,
      { error: 'modules.visa_application_url must be an http(s) URL' },
    ],
    [
      'a latitude out of range',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, location_latitude: 91 }),
      422,
      { error: 'body.event.location_latitude must be <= 90' },
    ],
    [
      'a NUL character',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, venue_name: 'Hall\u0000' }),
      422,
      { error: 'venue_name must not contain NUL characters' },
    ],
    [
      'a NUL character in a module URL',
      () =>
        create(env.w.secrets.seriesKeyS1, {
          ...valid,
          modules: { visa_application_url: 'https://x/\u0000' },
        }),
      422,
      { error: 'modules.visa_application_url must not contain NUL characters' },
    ],
    [
      'a NUL character in the series segment',
      () => create(env.w.secrets.seriesKeyS1, valid, 'summit%00series'),
      404,
      { error: 'Series not found' },
    ],
    [
      'a number as name',
      () => create(env.w.secrets.seriesKeyS1, { ...valid, name: 42 }),
      422,
      { error: 'body.event.name must be string' },
    ],
  ];
  it.each(cases)('%s', async (_label, send, status, body) => {
    const before = await snapshotDb(env.t.deps);
    const res = await send();
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(body);
    expect(await snapshotDb(env.t.deps)).toEqual(before);
  });

  it('a body without `event`, an unknown top-level field and malformed JSON', async () => {
    const send = (payload: string) =>
      env.t.app.inject({
        method: 'POST',
        url: '/api/v1/series/current/events',
        headers: { ...bearer(env.w.secrets.seriesKeyS1), 'content-type': 'application/json' },
        payload,
      });
    let res = await send('{}');
    expect([res.statusCode, res.json()]).toEqual([422, { error: 'body.event is required' }]);
    res = await send(JSON.stringify({ event: { name: 'x', support_email: 'x@muster.example' }, extra: 1 }));
    expect([res.statusCode, res.json()]).toEqual([422, { error: 'body: unknown field extra' }]);
    res = await send('{"event":');
    expect([res.statusCode, res.json()]).toEqual([400, { error: 'Malformed JSON in request body' }]);
  });
});
