/**
 * Races (quality.md "Concurrency"): the same invitation token presented 10 times in parallel
 * starts exactly one registration; 10 parallel staff withdrawals of one registration → one 200,
 * the rest 422, one audited transition.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { call, P, type RegHarness, startRegHarness, tokenIn } from './harness.js';

let h: RegHarness;

beforeAll(async () => {
  h = await startRegHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('concurrency', () => {
  it('one invitation token used 10 times in parallel → one registration', async () => {
    const email = 'racer@example.com';
    const mobile = await h.t.deps.db.transaction(async (tx) => {
      const user = await createUser(tx, { email, name: 'Rae Racer' });
      return (await issueMobileToken(tx, user.id)).secret;
    });
    const invite = await call(
      h.app,
      'POST',
      `${P}/events/${h.world.events.A.id}/participants`,
      h.world.secrets.eventKeyA,
      { email },
    );
    expect(invite.statusCode).toBe(201);
    const token = tokenIn(await h.smtp.waitFor((m) => m.to.includes(email)));
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(h.app, 'POST', `${P}/registrations`, mobile, { invitation_token: token }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.statusCode === 422))
      expect(r.json()).toEqual({ error: 'This invitation has already been used' });
    const regs = await h.t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM registrations r JOIN people p ON p.id = r.person_id WHERE p.email = ${email}`,
    );
    expect(regs.rows[0]!.n).toBe(1);
  }, 60_000);

  it('10 parallel staff withdrawals → one 200, nine 422, one transition', async () => {
    const pe = h.world.regs.adultA.id;
    const url = `${P}/events/${h.world.events.A.id}/participants/${pe}/withdraw`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(h.app, 'POST', url, h.world.secrets.eventAdmin)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([
      200, 422, 422, 422, 422, 422, 422, 422, 422, 422,
    ]);
    const audit = await h.t.deps.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'registrations.transition' AND target_id = ${String(pe)}`,
    );
    expect(audit.rows[0]!.n).toBe(1);
  }, 60_000);
});
