/** NFC badges (docs/decisions.md "Check-in"): ensure, confirm, reset; module off → 422; scans by badge token. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { addRegistration, buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let B: number;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  B = world.events.B.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const P = '/api/v1';
const nfc = (event: number, pe: number | string, op: string, body?: unknown, secret?: string) =>
  app.inject({
    method: 'POST',
    url: `${P}/events/${event}/participant_events/${pe}/nfc_badge/${op}`,
    ...(body === undefined ? {} : { payload: body as object }),
    headers: bearer(secret ?? world.users.seriesOwner.mobile),
  });

async function newReg(tag: string) {
  return t.deps.db.transaction((tx) =>
    addRegistration(tx, {
      eventId: B,
      email: `${tag}@nfc.test`,
      firstName: tag,
      lastName: 'Badge',
      preferredName: null,
      dateOfBirth: null,
      status: 'complete',
    }),
  );
}

describe('NFC badges', () => {
  it('ensure creates a token once; confirm assigns; reset issues a new unassigned token', async () => {
    const reg = await newReg('flow');
    const e1 = await nfc(B, reg.id, 'ensure');
    expect(e1.statusCode, e1.body).toBe(200);
    const token = e1.json().badge_token as string;
    expect(e1.json()).toEqual({ badge_token: token, assigned: false, assigned_at: null });
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect((await nfc(B, reg.id, 'ensure')).json()).toEqual(e1.json());

    const wrong = await nfc(B, reg.id, 'confirm', { badge_token: 'other' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ error: "badge_token does not match this participant's badge" });
    const c1 = await nfc(B, reg.id, 'confirm', { badge_token: token });
    expect(c1.statusCode).toBe(200);
    expect(c1.json()).toEqual({
      success: true,
      badge_token: token,
      assigned_at: expect.stringMatching(/Z$/),
    });
    const c2 = await nfc(B, reg.id, 'confirm', {});
    expect(c2.json()).toEqual(c1.json());
    expect((await nfc(B, reg.id, 'ensure')).json()).toEqual({
      badge_token: token,
      assigned: true,
      assigned_at: c1.json().assigned_at,
    });

    const scan = await app.inject({
      method: 'POST',
      url: `${P}/events/${B}/scans`,
      payload: { badge_token: token, source: 'nfc' },
      headers: bearer(world.users.seriesOwner.mobile),
    });
    expect(scan.json().participant).toMatchObject({ nfc_badge_token: token, nfc_badge_assigned: true });

    const r = await nfc(B, reg.id, 'reset');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ badge_token: expect.any(String), assigned: false, assigned_at: null });
    expect(r.json().badge_token).not.toBe(token);
    const old = await app.inject({
      method: 'POST',
      url: `${P}/events/${B}/scans`,
      payload: { badge_token: token },
      headers: bearer(world.users.seriesOwner.mobile),
    });
    expect(old.statusCode).toBe(404);
  });

  it('confirm without a token → 422; unknown registration → 404; module off → 422', async () => {
    const reg = await newReg('none');
    const c = await nfc(B, reg.id, 'confirm');
    expect(c.statusCode).toBe(422);
    expect(c.json()).toEqual({ error: 'This participant has no badge token yet: call ensure first' });
    expect((await nfc(B, world.regs.adultA.id, 'ensure')).statusCode).toBe(404);
    expect((await nfc(B, 'abc', 'ensure')).statusCode).toBe(404);
    const off = await nfc(
      world.events.A.id,
      world.regs.adultA.id,
      'ensure',
      undefined,
      world.users.ops.mobile,
    );
    expect(off.statusCode).toBe(422);
    expect(off.json()).toEqual({ error: 'NFC badges are not enabled for this event' });
    expect((await nfc(B, reg.id, 'confirm', { badge_token: 1 })).statusCode).toBe(422);
    expect((await nfc(B, reg.id, 'confirm', { extra: true })).statusCode).toBe(422);
  });

  it('keys, read_only and other events are refused; nothing changes', async () => {
    const before = await snapshotDb(t.deps);
    const A = world.events.A.id;
    for (const [event, secret] of [
      [B, world.secrets.eventKeyB!],
      [B, world.secrets.seriesKeyS1!],
      [A, world.users.readOnly.mobile],
      [B, world.users.ops.mobile],
    ] as const) {
      for (const op of ['ensure', 'confirm', 'reset']) {
        const pe = event === A ? world.regs.adultA.id : world.regs.regB.id;
        expect((await nfc(event, pe, op, undefined, secret)).statusCode).toBe(403);
      }
    }
    expect(await snapshotDb(t.deps)).toEqual(before);
  });

  it('updated_at advances on reset', async () => {
    const reg = await newReg('touch');
    const q = () =>
      t.deps.database.pool.query<{ u: string }>(
        'SELECT updated_at::text AS u FROM registrations WHERE id = $1',
        [reg.id],
      );
    const before = (await q()).rows[0]!.u;
    await nfc(B, reg.id, 'reset');
    expect((await q()).rows[0]!.u > before).toBe(true);
  });
});
