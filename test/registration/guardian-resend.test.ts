/**
 * POST /events/{e}/participants/{pe}/guardians/{id}/resend over HTTP with a real SMTP server
 * (docs/organiser-api.md "Invitations"): a fresh portal link each time (the previous one dead), no
 * email in the response, the audit entry (`renewed`), and the refusals in order, changing nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  call,
  expectRefusedUnchanged,
  P,
  type RegHarness,
  startRegHarness,
  tokenIn,
} from './harness.js';

let h: RegHarness;
let base: string;
let key: string;

beforeAll(async () => {
  h = await startRegHarness();
  base = `${P}/events/${h.world.events.A.id}`;
  key = h.world.secrets.eventAdmin!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const auditOf = (action: string) => auditRows(h, action);
const refusedUnchanged = (method: 'GET' | 'POST', url: string, status: number, error: string) =>
  expectRefusedUnchanged(h, method, url, key, status, error);

describe('POST /events/{e}/participants/{pe}/guardians/{id}/resend', () => {
  const url = (pe: number, g: number) => `${base}/participants/${pe}/guardians/${g}/resend`;

  async function guardianIds() {
    const res = await h.t.deps.db.execute<{ id: number; name: string }>(
      sql`SELECT id, name FROM guardians WHERE registration_id = ${h.world.regs.minorA.id} ORDER BY id`,
    );
    return Object.fromEntries(res.rows.map((r) => [r.name, Number(r.id)]));
  }

  it('emails a fresh portal link (no email in the response); a second resend kills the first link', async () => {
    const { 'Gus Guardian': gus } = await guardianIds();
    const pe = h.world.regs.minorA.id;
    const res = await call(h.app, 'POST', url(pe, gus!), h.world.secrets.limited);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body.guardian).sort()).toEqual([
      'id',
      'invite_expires_at',
      'invite_sent_at',
      'status',
    ]);
    expect(body.guardian).toMatchObject({ id: gus, status: 'invited' });
    expect(res.body).not.toContain('gus.guardian@example.com');
    const mails = () => h.smtp.received.filter((m) => m.to.includes('gus.guardian@example.com'));
    await h.smtp.waitFor(() => mails().length === 1);
    const first = tokenIn(mails()[0]!);
    expect((await call(h.app, 'GET', `${P}/guardian/${first}`)).statusCode).toBe(200);
    expect((await call(h.app, 'POST', url(pe, gus!), h.world.secrets.eventAdmin)).statusCode).toBe(200);
    await h.smtp.waitFor(() => mails().length === 2);
    expect((await call(h.app, 'GET', `${P}/guardian/${first}`)).statusCode).toBe(404);
    expect((await call(h.app, 'GET', `${P}/guardian/${tokenIn(mails()[1]!)}`)).statusCode).toBe(200);
    const audits = await auditOf('guardians.resend');
    expect(audits.map((a) => a.metadata)).toEqual([
      { guardian_id: gus, registration_id: pe, renewed: true },
      { guardian_id: gus, registration_id: pe, renewed: false },
    ]);
  });

  it('refusals in order change nothing', async () => {
    const { 'Gina Guardian': gina, 'Gus Guardian': gus } = await guardianIds();
    const pe = h.world.regs.minorA.id;
    await refusedUnchanged('POST', url(999999, gus!), 404, 'Participant not found for this event');
    await refusedUnchanged(
      'POST',
      url(h.world.regs.regB.id, gus!),
      404,
      'Participant not found for this event',
    );
    await refusedUnchanged('POST', url(pe, 999999), 404, 'Guardian not found');
    await refusedUnchanged(
      'POST',
      `${base}/participants/${pe}/guardians/x1/resend`,
      404,
      'Guardian not found',
    );
    await h.t.deps.db.execute(sql`UPDATE guardians SET status = 'completed' WHERE id = ${gina}`);
    await refusedUnchanged(
      'POST',
      url(pe, gina!),
      409,
      'This guardian has already completed the guardian steps',
    );
    await h.t.deps.db.execute(sql`UPDATE guardians SET status = 'declined' WHERE id = ${gina}`);
    await refusedUnchanged('POST', url(pe, gina!), 409, 'This guardian has declined');
    await h.t.deps.db.execute(sql`UPDATE guardians SET status = 'accepted', email = NULL WHERE id = ${gina}`);
    await refusedUnchanged('POST', url(pe, gina!), 422, 'This guardian has no email address');
    await h.t.deps.db.execute(
      sql`UPDATE guardians SET email = 'gina.guardian@example.com' WHERE id = ${gina}`,
    );
    const adult = h.world.regs.adultA.id;
    const adultGuardian = await h.t.deps.db.execute<{ id: number }>(
      sql`INSERT INTO guardians (registration_id, name, email) VALUES (${adult}, 'Odd', 'odd@example.com') RETURNING id`,
    );
    await refusedUnchanged(
      'POST',
      url(adult, adultGuardian.rows[0]!.id),
      409,
      'Guardians are invited only while the registration is awaiting_guardian',
    );
  }, 120_000);
});
