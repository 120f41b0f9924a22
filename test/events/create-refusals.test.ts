/**
 * POST /series/{s}/events refusals (spec "Series and events"; docs/decisions.md "Series, events and bans"): each with its exact
 * status and body, and none changing the database.
 */
import { describe, expect, it } from 'vitest';
import { bearer, snapshotDb } from '../support/app.js';
import { createEvent, withWorld } from './harness.js';

const env = withWorld();
const create = (secret: string | undefined, event: Record<string, unknown>, series?: string) =>
  createEvent(env, secret, event, series);

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
    [
      'a hotel_scan_context_id (a new event has no context to name yet)',
      () =>
        create(env.w.secrets.seriesKeyS1, {
          ...valid,
          hotel_scan_context_id: '00000000-0000-4000-8000-000000000001',
        }),
      422,
      { error: 'hotel_scan_context_id must name a scan context of this event' },
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
