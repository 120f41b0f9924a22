/**
 * The participant pages show the event's own setup (organiser-operations issue, item 5): the
 * invitation landing page and the consent page carry the uploaded logo (as a same-origin `/media/…`
 * image, allowed by the pages' CSP), and the consent page shows the event's consent document text
 * (the overview lists it under the event's title).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createInvitation } from '../../src/modules/registration/invitations/invitations.service.js';
import { withWorld } from '../events/harness.js';
import { bearer } from '../support/app.js';
import { anonymousBrowser, getPage, signedInBrowser } from '../web/support.js';
import { imageUpload, png } from './fixtures.js';

const env = withWorld();

async function invitationToken(email: string): Promise<string> {
  return env.t.deps.db.transaction(async (tx) => {
    const created = await createInvitation(env.t.deps, tx, {
      eventId: env.w.events.A.id,
      email,
      firstName: 'Lena',
      lastName: 'Logo',
      actor: { actorUserId: null },
    });
    return created.token;
  });
}

describe('event logo and consent text on participant pages', () => {
  it('the invitation page shows no logo until one is uploaded, then the uploaded one', async () => {
    const token = await invitationToken('lena.logo@example.com');
    const url = `/register/accept?token=${encodeURIComponent(token)}`;
    const before = await getPage(env.t.app, anonymousBrowser(), url);
    expect(before.statusCode).toBe(200);
    expect(before.body).not.toContain('class="event-logo"');

    const up = imageUpload(png(3));
    const res = await env.t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${env.w.events.A.id}/images/logo`,
      headers: { ...bearer(env.w.secrets.eventAdmin), ...up.headers },
      payload: up.payload,
    });
    const path = new URL(res.json().logo_url).pathname;
    const after = await getPage(env.t.app, anonymousBrowser(), url);
    expect(after.body).toContain(`<img class="event-logo" src="${path}" alt="${env.w.events.A.name} logo">`);
    expect(after.headers['content-security-policy']).toContain("img-src 'self'");
  });

  it('the consent page shows the event’s document text and logo', async () => {
    const pe = env.w.regs.adultA.id;
    await env.t.deps.db.execute(
      sql`UPDATE consents SET status = 'sent', pending_on = 'participant' WHERE registration_id = ${pe} AND consent_type = 'code_of_conduct'`,
    );
    const saved = await env.t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${env.w.events.A.uuid}/consent_documents/code_of_conduct`,
      headers: bearer(env.w.secrets.seriesOrganizer),
      payload: { consent_document: { title: 'Summit code', body: 'Be kind.\n\nAsk <b>for</b> help.' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await env.t.deps.db.execute<{ id: number }>(
      sql`SELECT id FROM consents WHERE registration_id = ${pe} AND consent_type = 'code_of_conduct'`,
    );
    const alice = await signedInBrowser(env.t.deps, env.w.users.participant.id);
    const page = await getPage(env.t.app, alice, `/register/${pe}/consents/${res.rows[0]!.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Summit code</h1>');
    expect(page.body).toContain('<p>Be kind.</p>');
    expect(page.body).toContain('<p>Ask &lt;b&gt;for&lt;/b&gt; help.</p>');
    expect(page.body).toContain('class="event-logo"');
    // The registration overview lists the consent under the event's title too.
    const overview = await getPage(env.t.app, alice, `/register/${pe}`);
    expect(overview.body).toContain('Summit code');
  });
});
