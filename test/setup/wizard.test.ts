/**
 * The setup wizard pages (/staff/events/{e}/setup/…) through app.inject with a signed-in session:
 * each step saves through the event update service (the API's validation, its message next to the
 * field), date-times are read and shown in the event's time zone, consent documents and images
 * are saved from their forms (the upload is multipart with the CSRF token in the action URL), and
 * "Complete setup" leaves the draft state.
 */
import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '../../src/modules/events/event-images.service.js';
import { createEventRecord } from '../../src/modules/events/records.service.js';
import { query, withWorld } from '../events/harness.js';
import { type Browser, csrfOf, getPage, postForm, signedInBrowser } from '../web/support.js';
import { imageUpload, png } from './fixtures.js';

const env = withWorld();

async function draft(): Promise<{ id: number; browser: Browser }> {
  const d = await createEventRecord(env.t.deps.db, {
    seriesId: env.w.series.S1.id,
    name: 'Winter Draft',
    slug: `winter-draft-${Date.now()}`,
    supportEmail: null,
  });
  return { id: d.id, browser: await signedInBrowser(env.t.deps, env.w.users.seriesOrganizer.id) };
}

const cookie = (b: Browser) =>
  Object.entries(b.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

describe('setup wizard pages', () => {
  it('offers the shipped languages and a default, saved through the event update service', async () => {
    const { id, browser } = await draft();
    const base = `/staff/events/${id}/setup`;
    const page = await getPage(env.t.app, browser, `${base}/languages`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(
      '<legend>Languages offered to participants and guardians (pages and emails)</legend>',
    );
    for (const code of ['en', 'es', 'de', 'ar']) expect(page.body).toContain(`id="f-language_${code}"`);
    expect(page.body).toContain('<label for="f-default_language">Default language</label>');
    const csrf = csrfOf(page.body);
    const languagesOf = async () =>
      (
        await query<{ default_language: string; languages: string[] }>(
          env,
          'SELECT default_language, languages FROM events WHERE id = $1',
          [id],
        )
      )[0]!;
    const before = await languagesOf();

    // The default must be offered: 422, the message on the default's field, nothing saved.
    const notOffered = await postForm(
      env.t.app,
      browser,
      `${base}/languages`,
      { language_en: 'true', language_de: 'true', default_language: 'es' },
      csrf,
    );
    expect(notOffered.statusCode).toBe(422);
    expect(notOffered.body).toContain('id="f-default_language-error"');
    expect(notOffered.body).toMatch(/id="f-language_de"[^>]*checked/);
    // No language at all: 422 on the first box.
    const none = await postForm(env.t.app, browser, `${base}/languages`, { default_language: 'en' }, csrf);
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('id="f-language_en-error"');
    expect(await languagesOf()).toEqual(before);

    const saved = await postForm(
      env.t.app,
      browser,
      `${base}/languages`,
      { language_en: 'true', language_es: 'true', default_language: 'es' },
      csrf,
    );
    expect(saved.statusCode, saved.body.slice(0, 400)).toBe(303);
    expect(saved.headers.location).toBe(`${base}/registration?done=saved`);
    expect(await languagesOf()).toEqual({ default_language: 'es', languages: ['en', 'es'] });
    const again = await getPage(env.t.app, browser, `${base}/languages`);
    expect(again.body).toMatch(/id="f-language_es"[^>]*checked/);
    expect(again.body).not.toMatch(/id="f-language_de"[^>]*checked/);
    expect(again.body).toContain('<option value="es" selected>');
  });

  it('walks every step to "setup complete"', async () => {
    const { id, browser } = await draft();
    const base = `/staff/events/${id}/setup`;
    const start = await getPage(env.t.app, browser, base);
    expect(start.statusCode).toBe(200);
    expect(start.body).toContain('<h2>Details and schedule</h2>');
    const details = await getPage(env.t.app, browser, `${base}/details`);
    expect(details.statusCode).toBe(200);
    expect(details.headers['cache-control']).toBe('no-store');
    const csrf = csrfOf(details.body);

    // A bad time zone: 422, the message next to the field, the typed values kept, nothing saved.
    const bad = await postForm(
      env.t.app,
      browser,
      `${base}/details`,
      { name: 'Winter Camp', timezone: 'Mars/Olympus' },
      csrf,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="f-timezone-error"');
    expect(bad.body).toContain('value="Mars/Olympus"');
    expect(bad.body).toContain('href="#f-timezone"');

    const saved = await postForm(
      env.t.app,
      browser,
      `${base}/details`,
      {
        name: 'Winter Camp',
        timezone: 'Europe/Berlin',
        starts_at: '2027-01-10T09:00',
        ends_at: '2027-01-14T17:00',
        venue_name: 'Lodge',
      },
      csrf,
    );
    expect(saved.statusCode, saved.body.slice(0, 400)).toBe(303);
    expect(saved.headers.location).toBe(`${base}/languages?done=saved`);
    const [row] = await query<{ starts_at: string }>(
      env,
      'SELECT starts_at::text FROM events WHERE id = $1',
      [id],
    );
    expect(row!.starts_at).toBe('2027-01-10 08:00:00+00');
    const again = await getPage(env.t.app, browser, `${base}/details`);
    expect(again.body).toContain('value="2027-01-10T09:00"');
    expect(again.body).toContain('In the event’s time zone (Europe/Berlin).');

    const window = await postForm(
      env.t.app,
      browser,
      `${base}/registration`,
      { registration_open_at: '2026-12-01T00:00', registration_close_at: '2026-11-01T00:00' },
      csrf,
    );
    expect(window.statusCode).toBe(422);
    expect(window.body).toContain('Registration closes must not be before registration opens');
    expect(
      (
        await postForm(
          env.t.app,
          browser,
          `${base}/registration`,
          { registration_open_at: '2026-12-01T00:00', registration_close_at: '2026-12-20T00:00' },
          csrf,
        )
      ).statusCode,
    ).toBe(303);

    expect(
      (
        await postForm(
          env.t.app,
          browser,
          `${base}/modules`,
          { travel_enabled: 'true', groups_enabled: 'true' },
          csrf,
        )
      ).statusCode,
    ).toBe(303);
    const [mods] = await query<{ modules: Record<string, boolean> }>(
      env,
      'SELECT modules FROM events WHERE id = $1',
      [id],
    );
    expect(mods!.modules).toMatchObject({
      travel_enabled: true,
      groups_enabled: true,
      accommodation_enabled: false,
      freedom_waivers_enabled: false,
    });

    // Completing without a support email: the service's 422 on the page.
    const early = await postForm(env.t.app, browser, `${base}/complete`, {}, csrf);
    expect(early.statusCode).toBe(422);
    expect(early.body).toContain('Set a support email before completing the setup');
    const email = await postForm(
      env.t.app,
      browser,
      `${base}/contact`,
      { support_email: 'help@nowhere.example' },
      csrf,
    );
    expect(email.statusCode).toBe(422);
    expect(email.body).toContain('id="f-support_email-error"');
    expect(
      (
        await postForm(
          env.t.app,
          browser,
          `${base}/contact`,
          { support_email: 'winter@muster.example' },
          csrf,
        )
      ).statusCode,
    ).toBe(303);

    const blank = await postForm(
      env.t.app,
      browser,
      `${base}/consents/waiver`,
      { title: 'Winter waiver', body: ' ' },
      csrf,
    );
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('id="doc-waiver-body-error"');
    const doc = await postForm(
      env.t.app,
      browser,
      `${base}/consents/waiver`,
      { title: 'Winter waiver', body: 'Stay warm.' },
      csrf,
    );
    expect(doc.statusCode).toBe(303);

    // Upload without the token in the URL: refused before the body is read.
    const upload = imageUpload(png(5));
    const headers = { ...upload.headers, cookie: cookie(browser), accept: 'text/html' };
    const noToken = await env.t.app.inject({
      method: 'POST',
      url: `${base}/images/logo`,
      headers,
      payload: upload.payload,
    });
    expect(noToken.statusCode).toBe(403);
    const gif = imageUpload(Buffer.from('GIF89a'), 'image/gif', 'a.gif');
    const refused = await env.t.app.inject({
      method: 'POST',
      url: `${base}/images/logo?_csrf=${encodeURIComponent(csrf)}`,
      headers: { ...headers, ...gif.headers },
      payload: gif.payload,
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.body).toContain('Only PNG, JPEG or WebP images can be uploaded');
    expect(refused.body).toContain('id="f-logo-error"');
    const big = imageUpload(Buffer.concat([png(), Buffer.alloc(IMAGE_MAX_BYTES)]));
    const tooBig = await env.t.app.inject({
      method: 'POST',
      url: `${base}/images/logo?_csrf=${encodeURIComponent(csrf)}`,
      headers: { ...headers, ...big.headers },
      payload: big.payload,
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.body).toContain('The image is larger than 2 MB');
    expect(await query(env, 'SELECT logo_url FROM events WHERE id = $1', [id])).toEqual([{ logo_url: null }]);
    // A broken multipart body (no boundary): an error page, not a 500.
    const broken = await env.t.app.inject({
      method: 'POST',
      url: `${base}/images/logo?_csrf=${encodeURIComponent(csrf)}`,
      headers: { ...headers, 'content-type': 'multipart/form-data' },
      payload: upload.payload,
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.headers['content-type']).toBe('text/html; charset=utf-8');
    const up = await env.t.app.inject({
      method: 'POST',
      url: `${base}/images/logo?_csrf=${encodeURIComponent(csrf)}`,
      headers,
      payload: upload.payload,
    });
    expect(up.statusCode, up.body.slice(0, 300)).toBe(303);
    const images = await getPage(env.t.app, browser, `${base}/images`);
    expect(images.body).toMatch(/<img class="setup-logo" src="\/media\/[0-9a-f]{64}\.png"/);

    const done = await postForm(env.t.app, browser, `${base}/complete`, {}, csrf);
    expect(done.statusCode).toBe(303);
    const final = await getPage(env.t.app, browser, `${base}/complete`);
    expect(final.body).toContain('Setup complete.');
    const [ev] = await query<{ setup_complete: boolean }>(
      env,
      'SELECT setup_complete FROM events WHERE id = $1',
      [id],
    );
    expect(ev!.setup_complete).toBe(true);
  });
});
