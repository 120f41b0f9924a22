/**
 * POST /series/{s}/events (spec "Series and events"; docs/decisions.md "Series, events and bans"): series key only, the series
 * from the key, foreign `event_series_id` 403, required fields, operator domains, slug rules, IANA
 * timezone, zone-less times in the event's zone, unknown fields 422, defaults (draft, check-in
 * context, modules), key owner's event_admin, audit naming the key, 201 `{event: Event (full)}`.
 * The refusals are in create-refusals.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { issueSeriesKey } from '../../src/modules/credentials/issue.service.js';
import { createEvent, query, withWorld } from './harness.js';

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

const create = (secret: string | undefined, event: Record<string, unknown>, series?: string) =>
  createEvent(env, secret, event, series);

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
      email_reminders_enabled: true,
      participant_count: 0,
      default_language: 'en',
      languages: ['en'],
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

  it('parallel creates of one name all succeed with distinct slugs (no 409, no 5xx)', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        create(env.w.secrets.seriesKeyS1, { name: 'Rush Hour', support_email: 'r@muster.example' }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const slugs = results.map((r) => r.json().event.slug as string).sort();
    expect(new Set(slugs).size).toBe(10);
    expect(slugs).toContain('rush-hour');
  });
});
