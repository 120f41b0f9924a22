/**
 * Runs the pending-invitation and guardian-resend matrix rows (test/access/rows/invitations.ts)
 * against the real database: exact status and error body per cell, and a replay of every refused
 * cell proving the database is unchanged. Resend/revoke/guardian cells each act on a fresh fixture
 * of the cell's target (an invitation, a minor awaiting a guardian), so an allowed revoke never
 * finds its invitation already revoked and a refused one has a real row to (not) change.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardians } from '../../src/db/schema/index.js';
import { registeredRoutes } from '../../src/http/route-table.js';
import { digestSecret } from '../../src/lib/secrets.js';
import { type InvitationRow, invitationRouteKeys, invitationRows } from '../access/rows/invitations.js';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { itEachRow } from '../support/row-cells.js';
import { addRegistration, buildWorld, PRINCIPALS, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let counter = 0;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const P = '/api/v1';
type EventName = 'A' | 'B' | 'C';
type Request = { method: 'GET' | 'POST'; url: string };

function segment(target: string): { seg: string; on: EventName } {
  const [name, form] = target.split(':') as [EventName | 'X', string];
  if (name === 'X') return { seg: '99999999', on: 'A' };
  const e = world.events[name];
  return { seg: form === 'uuid' ? e.uuid : form === 'slug' ? e.slug : String(e.id), on: name };
}

async function invitationOn(event: EventName): Promise<number> {
  counter++;
  const { rows } = await t.deps.database.pool.query(
    `INSERT INTO invitations (event_id, email, token_digest, expires_at)
     VALUES ($1, $2, $3, now() + interval '30 days') RETURNING id`,
    [
      world.events[event].id,
      `row-${counter}@invite.test`,
      digestSecret(`row-token-${counter}-${Math.random()}`),
    ],
  );
  return rows[0].id as number;
}

/** A minor awaiting a guardian on `event`: its registration id and the guardian's id. */
async function minorOn(event: EventName): Promise<{ pe: number; guardian: number }> {
  counter++;
  return t.deps.db.transaction(async (tx) => {
    const reg = await addRegistration(tx, {
      eventId: world.events[event].id,
      email: `minor-${counter}@invite.test`,
      firstName: `Minor${counter}`,
      lastName: 'Row',
      preferredName: null,
      dateOfBirth: '2012-01-01',
      status: 'awaiting_guardian',
    });
    const [g] = await tx
      .insert(guardians)
      .values({
        registrationId: reg.id,
        name: 'Row Guardian',
        email: `g-${counter}@invite.test`,
        status: 'pending',
      })
      .returning({ id: guardians.id });
    return { pe: reg.id, guardian: g!.id };
  });
}

/** The request of one row, creating the fixture it acts on. */
async function prepare(row: InvitationRow): Promise<Request> {
  const { seg, on } = segment(row.target);
  const base = `${P}/events/${seg}`;
  if (row.name === 'list') return { method: 'GET', url: `${base}/invitations` };
  if (row.name === 'guardian') {
    const m = await minorOn(on);
    const other = row.target === 'A:other' ? await minorOn('A') : m;
    return { method: 'POST', url: `${base}/participants/${m.pe}/guardians/${other.guardian}/resend` };
  }
  const id = await invitationOn(row.target === 'A:other' ? 'B' : on);
  return { method: 'POST', url: `${base}/invitations/${id}/${row.name}` };
}

function send(row: InvitationRow, request: Request) {
  return app.inject({ ...request, headers: bearer(world.secrets[row.principal]) });
}

describe('pending-invitation and guardian-resend rows', () => {
  it('cover every principal on each route, and every registered route of the area', () => {
    expect(invitationRows).toHaveLength(PRINCIPALS.length * (6 + 7 + 7 + 6));
    const registered = registeredRoutes(app)
      .map((r) => `${r.method} ${r.url}`)
      .filter(
        (k) => /\/invitations(\/|$)|\/guardians\/:id\/resend$/.test(k) && k.includes('/api/v1/events/'),
      );
    expect(registered.sort()).toEqual([...invitationRouteKeys].sort());
  });

  itEachRow({
    rows: invitationRows,
    name: (r) => `${r.route} ${r.principal} ${r.target} → ${r.expected.status}`,
    refused: (r) => r.expected.status >= 400,
    deps: () => t.deps,
    prepare,
    async check(row, request) {
      const res = await send(row, request);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(row.expected.status);
      if (row.expected.error !== undefined) expect(res.json()).toEqual({ error: row.expected.error });
      else {
        const body = res.json() as Record<string, unknown>;
        const key = { list: 'invitations', resend: 'invitation', revoke: 'invitation', guardian: 'guardian' }[
          row.name
        ];
        expect(body[key], res.body.slice(0, 300)).toBeDefined();
      }
    },
  });
});
