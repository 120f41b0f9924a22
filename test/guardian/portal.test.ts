/**
 * Guardian portal (docs/decisions.md "Guardian portal"): the token is the credential; 404 unknown, 410 expired; the view
 * carries no sensitive detail; PATCH and complete validate, audit, bump updated_at and re-run the
 * registration's completion check; withdrawn registrations refuse writes; rate limited per IP.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { giveToken } from './tokens.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let gina: string;
let gus: string;
let ginaId: number;
let gusId: number;
let expired: string;
let ip = 0;
const P = '/api/v1';

// biome-ignore lint/suspicious/noExplicitAny: test reads nested JSON freely
type Json = Record<string, any>;

/** Each request from its own address unless given, so the per-IP limit stays out of the way. */
function send(opts: InjectOptions) {
  ip += 1;
  return app.inject({ remoteAddress: `203.0.113.${ip % 250}`, ...opts } as InjectOptions);
}
const q = async <T = Json>(text: string): Promise<T[]> =>
  (await t.deps.database.pool.query(text)).rows as T[];

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  ginaId = world.guardianA;
  gusId = (await q<{ id: number }>(`SELECT id FROM guardians WHERE name = 'Gus Guardian'`))[0]!.id;
  gina = await giveToken(t.deps.db, ginaId);
  gus = await giveToken(t.deps.db, gusId);
  // A third guardian on the adult's registration, whose link has expired.
  const [row] = await q<{ id: number }>(
    `INSERT INTO guardians (registration_id, name, email, status) VALUES (${world.regs.adultA.id}, 'Old Link', 'old@example.com', 'invited') RETURNING id`,
  );
  expired = await giveToken(t.deps.db, row!.id, -1);
  // The minor has submitted (docs/decisions.md "Guardian portal" submit → awaiting_guardian): the completion check applies.
  await q(`UPDATE registrations SET submitted_at = now() WHERE id = ${world.regs.minorA.id}`);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /guardian/{token}', () => {
  it('shows the guardian, the child’s summary, the permissions and the consents waiting on a guardian', async () => {
    const res = await send({ method: 'GET', url: `${P}/guardian/${gina}`, headers: bearer('garbage') });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Json;
    expect(Object.keys(body).sort()).toEqual(['child', 'consents', 'expires_at', 'guardian', 'permissions']);
    expect(body.guardian).toMatchObject({
      id: ginaId,
      name: 'Gina Guardian',
      email: 'gina.guardian@example.com',
      is_primary: true,
      status: 'accepted',
      media_permission: 'yes',
    });
    expect(body.guardian.emergency_contacts.map((c: Json) => c.name)).toEqual(['Grandma Minor']);
    expect(body.child).toEqual({
      participant_event_id: world.regs.minorA.id,
      display_name: 'Max Minor',
      full_name: 'Max Minor',
      date_of_birth: '2012-05-05',
      age: 14,
      status: 'awaiting_guardian',
      authorized_pickup_adults: 'Gina Guardian',
      event: {
        name: 'Summit Alpha',
        slug: 'summit-alpha',
        starts_at: '2026-07-10T08:00:00.000000Z',
        ends_at: '2026-07-14T17:00:00.000000Z',
        timezone: 'Europe/London',
        location_city: 'London',
        support_email: 'alpha@muster.example',
      },
    });
    expect(body.permissions.map((p: Json) => [p.key, p.required, p.value])).toEqual([
      ['media_permission', true, 'yes'],
      ['photo_permission', true, 'no'],
      ['travel_permission', true, 'yes'],
      ['emergency_medical_consent', true, 'yes'],
      ['otc_medication_consent', false, 'paracetamol only'],
    ]);
    expect(body.permissions[0].options).toEqual(['granted', 'denied']);
    expect(body.consents).toEqual([
      expect.objectContaining({ consent_type: 'waiver', status: 'sent', pending_on: 'guardian' }),
    ]);
    // The child's medical and safeguarding detail is not part of the portal.
    for (const secret of ['Peanuts', 'Asthma', 'EpiPen', 'Check in twice daily', 'Uncle Minor'])
      expect(res.body).not.toContain(secret);
  });

  it('404 for unknown or malformed tokens, 410 for expired ones; reading writes nothing', async () => {
    const before = await snapshotDb(t.deps);
    for (const token of ['x'.repeat(43), 'short', 'has%20space-and-more-chars', 'a'.repeat(201)]) {
      const res = await send({ method: 'GET', url: `${P}/guardian/${token}` });
      expect(res.statusCode, token).toBe(404);
      expect(res.json()).toEqual({ error: 'Guardian link not found' });
    }
    const old = await send({ method: 'GET', url: `${P}/guardian/${expired}` });
    expect(old.statusCode).toBe(410);
    expect(old.json()).toEqual({
      error: 'This guardian link has expired; ask the participant or the event team for a new one',
    });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});

describe('PATCH /guardian/{token}', () => {
  it('updates permissions, own details and own contacts; accepts; audits; bumps updated_at', async () => {
    const [{ updated_at: before }] = (await q(
      `SELECT updated_at FROM registrations WHERE id = ${world.regs.minorA.id}`,
    )) as [Json];
    const res = await send({
      method: 'PATCH',
      url: `${P}/guardian/${gus}`,
      payload: {
        phone: '+44 7700 900777',
        relationship: 'father',
        media_permission: 'granted',
        photo_permission: 'denied',
        travel_permission: 'granted',
        emergency_contacts: [
          { name: 'Neighbour Ned', phone: '+447700900400', relationship: 'neighbour' },
          {
            name: 'Cousin Cat',
            phone: '+447700900401',
            email: 'cat@example.com',
            relationship: 'cousin',
            priority: 5,
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const g = (res.json() as Json).guardian;
    expect(g).toMatchObject({
      id: gusId,
      status: 'accepted',
      phone: '+447700900777',
      media_permission: 'granted',
      photo_permission: 'denied',
      emergency_medical_consent: null,
    });
    expect(g.accepted_at).not.toBeNull();
    expect(g.emergency_contacts.map((c: Json) => [c.name, c.priority])).toEqual([
      ['Neighbour Ned', 1],
      ['Cousin Cat', 5],
    ]);
    const [{ updated_at: after }] = (await q(
      `SELECT updated_at FROM registrations WHERE id = ${world.regs.minorA.id}`,
    )) as [Json];
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    const audit = await q(
      `SELECT target_type, target_id, metadata FROM audit_log WHERE action = 'guardians.portal.update'`,
    );
    expect(audit).toEqual([
      {
        target_type: 'guardian',
        target_id: String(gusId),
        metadata: {
          registration_id: world.regs.minorA.id,
          via: 'guardian_link',
          fields: [
            'phone',
            'relationship',
            'media_permission',
            'photo_permission',
            'travel_permission',
            'emergency_contacts',
          ],
        },
      },
    ]);
    // Staff see the guardian's answers in the participant's record.
    const detail = await send({
      method: 'GET',
      url: `${P}/events/${world.events.A.id}/participants/${world.regs.minorA.id}`,
      headers: bearer(world.users.safeguarding.mobile),
    });
    const staffView = (detail.json() as Json).participant.guardians.find((x: Json) => x.id === gusId);
    expect(staffView.photo_permission).toBe('denied');
  });

  it.each([
    [{ media_permission: 'maybe' }, 'media_permission must be one of "granted", "denied"'],
    [{ email: 'new@example.com' }, 'body has unknown field: email'],
    [{ status: 'completed' }, 'body has unknown field: status'],
    [{ phone: 'call me' }, 'phone must be a phone number in international format, e.g. +447700900123'],
    [
      { emergency_contacts: [{ name: 'N', phone: '123', relationship: 'x' }] },
      'emergency_contacts[0].phone must be a phone number in international format, e.g. +447700900123',
    ],
    [{ name: '' }, 'name must not have fewer than 1 characters'],
    ['[]', 'The request body must be a JSON object'],
  ])('422 naming the field: %j', async (payload, error) => {
    const before = await snapshotDb(t.deps);
    const res = await send({
      method: 'PATCH',
      url: `${P}/guardian/${gus}`,
      headers: { 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    expect(res.statusCode).toBe(422);
    // `error` as before; `problems` carries the same messages, one per field (problems.test.ts).
    const body = res.json() as { error: string; problems: { field: string; message: string }[] };
    expect(body).toEqual({ error, problems: expect.any(Array) });
    expect(body.problems.map((p) => p.message).join('; ')).toBe(error);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('checks the token before the body (404, 410) and answers malformed JSON 400', async () => {
    const unknown = await send({
      method: 'PATCH',
      url: `${P}/guardian/${'y'.repeat(43)}`,
      payload: { nope: 1 },
    });
    expect(unknown.statusCode).toBe(404);
    const old = await send({ method: 'PATCH', url: `${P}/guardian/${expired}`, payload: { nope: 1 } });
    expect(old.statusCode).toBe(410);
    const bad = await send({
      method: 'PATCH',
      url: `${P}/guardian/${gus}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /guardian/{token}/complete', () => {
  it('refuses while a required permission is unanswered', async () => {
    const res = await send({ method: 'POST', url: `${P}/guardian/${gus}/complete` });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'Answer these permissions before completing: emergency_medical_consent',
    });
  });

  it('a guardian signs the consents waiting on a guardian (typed signature)', async () => {
    const [{ id: waiver }] = (await q(
      `SELECT id FROM consents WHERE registration_id = ${world.regs.minorA.id} AND consent_type = 'waiver'`,
    )) as [Json];
    const [{ id: foreign }] = (await q(
      `SELECT id FROM consents WHERE registration_id = ${world.regs.adultA.id} LIMIT 1`,
    )) as [Json];
    const sign = (token: string, id: number | string, payload: unknown) =>
      send({ method: 'POST', url: `${P}/guardian/${token}/consents/${id}/sign`, payload: payload as object });
    const refusals: [string, number | string, unknown, number, string][] = [
      [gina, foreign, { signature_name: 'Gina' }, 404, 'Consent not found'],
      [gina, 'abc', { signature_name: 'Gina' }, 404, 'Consent not found'],
      [gina, waiver, {}, 422, 'signature_name is required'],
      [gina, waiver, { signature_name: '  ' }, 422, 'Signature name is required'],
      [gina, waiver, { signature_name: 'Gina', extra: 1 }, 422, 'body has unknown field: extra'],
      [
        expired,
        waiver,
        { signature_name: 'Gina' },
        410,
        'This guardian link has expired; ask the participant or the event team for a new one',
      ],
      ['z'.repeat(43), waiver, { signature_name: 'Gina' }, 404, 'Guardian link not found'],
    ];
    const before = await snapshotDb(t.deps);
    for (const [token, id, payload, status, error] of refusals) {
      const res = await sign(token, id, payload);
      expect(res.statusCode, `${id} ${JSON.stringify(payload)}`).toBe(status);
      expect(res.json()).toEqual({ error });
    }
    expect(await snapshotDb(t.deps)).toEqual(before);

    const res = await sign(gina, waiver, { signature_name: ' Gina Guardian ' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Json).consents).toEqual([]); // nothing left waiting on a guardian
    const [row] = (await q(
      `SELECT status, signature_name, guardian_signed_at IS NOT NULL AS by_guardian, participant_signed_at, pending_on, signature_ip FROM consents WHERE id = ${waiver}`,
    )) as [Json];
    expect(row).toEqual({
      status: 'signed',
      signature_name: 'Gina Guardian',
      by_guardian: true,
      participant_signed_at: null,
      pending_on: null,
      signature_ip: expect.any(String),
    });
    const audit = await q(`SELECT metadata FROM audit_log WHERE action = 'consents.sign'`);
    expect(audit.map((a) => [a.metadata.signer, a.metadata.guardian_id, a.metadata.consent_type])).toEqual([
      ['guardian', ginaId, 'waiver'],
    ]);
    const again = await sign(gus, waiver, { signature_name: 'Gus' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: 'This consent is already signed' });
  });

  it('completes each guardian; the registration completes with the last one (waiver signed)', async () => {
    // Event A has the freedom waiver module on (the default): that consent is needed too.
    await q(
      `INSERT INTO consents (registration_id, consent_type, status, signed_at) VALUES (${world.regs.minorA.id}, 'freedom_waiver', 'signed', now())`,
    );
    const first = await send({ method: 'POST', url: `${P}/guardian/${gina}/complete` });
    expect(first.statusCode, first.body).toBe(200);
    expect((first.json() as Json).guardian.status).toBe('completed');
    expect((first.json() as Json).child.status).toBe('awaiting_guardian'); // Gus has not completed
    await send({
      method: 'PATCH',
      url: `${P}/guardian/${gus}`,
      payload: { emergency_medical_consent: 'granted' },
    });
    const last = await send({ method: 'POST', url: `${P}/guardian/${gus}/complete` });
    expect(last.statusCode, last.body).toBe(200);
    expect((last.json() as Json).guardian).toMatchObject({ status: 'completed' });
    expect((last.json() as Json).child.status).toBe('complete');
    const moves = await q(
      `SELECT metadata FROM audit_log WHERE action = 'registrations.transition' AND target_id = '${world.regs.minorA.id}'`,
    );
    expect(moves.map((m) => [m.metadata.from, m.metadata.to, m.metadata.by, m.metadata.guardian_id])).toEqual(
      [['awaiting_guardian', 'complete', 'guardian', gusId]],
    );
    // Every portal action is audited as done through a guardian link (not as a CLI action), and the
    // rows name no token.
    const viaLink = await q<{ action: string; credential_kind: string | null; row: string }>(
      `SELECT action, credential_kind, to_jsonb(a)::text AS row FROM audit_log a
        WHERE action IN ('guardians.portal.update', 'guardians.portal.complete', 'consents.sign', 'registrations.transition')
          AND (metadata->>'via' = 'guardian_link' OR metadata ? 'guardian_id')`,
    );
    expect(viaLink.length).toBeGreaterThanOrEqual(4);
    expect(new Set(viaLink.map((r) => r.credential_kind))).toEqual(new Set(['guardian_link']));
    for (const r of viaLink) for (const token of [gina, gus]) expect(r.row).not.toContain(token);
    // Idempotent: completing again changes nothing.
    const before = await snapshotDb(t.deps);
    const again = await send({ method: 'POST', url: `${P}/guardian/${gus}/complete` });
    expect(again.statusCode).toBe(200);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('refuses writes for a withdrawn registration (409) but still shows it', async () => {
    await q(`UPDATE registrations SET status = 'withdrawn' WHERE id = ${world.regs.minorA.id}`);
    const before = await snapshotDb(t.deps);
    const patch = await send({
      method: 'PATCH',
      url: `${P}/guardian/${gina}`,
      payload: { photo_permission: 'granted' },
    });
    expect(patch.statusCode).toBe(409);
    expect(patch.json()).toEqual({ error: 'This registration is withdrawn' });
    const done = await send({ method: 'POST', url: `${P}/guardian/${gina}/complete` });
    expect(done.statusCode).toBe(409);
    expect(await snapshotDb(t.deps)).toEqual(before);
    const view = await send({ method: 'GET', url: `${P}/guardian/${gina}` });
    expect((view.json() as Json).child.status).toBe('withdrawn');
    await q(`UPDATE registrations SET status = 'complete' WHERE id = ${world.regs.minorA.id}`);
  });

  it('is rate limited per client IP (429 with Retry-After)', async () => {
    const statuses: number[] = [];
    let retryAfter: unknown;
    for (let i = 0; i < 31; i++) {
      const res = await app.inject({
        method: 'GET',
        url: `${P}/guardian/${gina}`,
        remoteAddress: '198.18.0.9',
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter = res.headers['retry-after'];
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

describe('guardian link digests', () => {
  it('stores no token in the database', async () => {
    const text = JSON.stringify(await q(`SELECT * FROM guardians`));
    for (const token of [gina, gus, expired]) expect(text).not.toContain(token);
    const rows = await t.deps.db.execute(
      sql`SELECT count(*)::int AS n FROM guardians WHERE invite_token_digest IS NOT NULL`,
    );
    expect(rows.rows[0]).toEqual({ n: 3 });
  });
});
