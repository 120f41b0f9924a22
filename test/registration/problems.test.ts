/**
 * Field problems as data: a 422 from the participant's own `PATCH /registrations/{pe}`, from the
 * guardian portal's `PATCH /guardian/{token}` and from an import carries `problems: [{field,
 * message}]` with the exact field paths, beside the unchanged `error` (every message joined by
 * "; "). A refused write changes nothing.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { people } from '../../src/db/schema/index.js';
import { ApiError } from '../../src/lib/errors.js';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import type { ImportItem } from '../../src/modules/participants/record/item.schema.js';
import { importParticipants } from '../../src/modules/registration/import/import.service.js';
import { giveToken } from '../guardian/tokens.js';
import { bearer, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';

let t: TestApp;
let app: FastifyInstance;
let world: World;
let minorToken: string;
let guardianToken: string;
const P = '/api/v1';

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  minorToken = await t.deps.db.transaction(async (tx) => {
    const user = await createUser(tx, { email: 'max.minor@example.com', name: 'Max' });
    await tx.update(people).set({ userId: user.id }).where(eq(people.id, world.regs.minorA.personId));
    return (await issueMobileToken(tx, user.id)).secret;
  });
  guardianToken = await giveToken(t.deps.db, world.guardianA);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

interface Problem {
  field: string;
  message: string;
}

/** The 422 body: `error` is the problems' messages joined by "; ", in order. */
function expectProblems(body: { error: string; problems: Problem[] }, expected: Problem[]): void {
  expect(body).toEqual({ error: expected.map((p) => p.message).join('; '), problems: expected });
}

const PHONE = 'must be a phone number in international format, e.g. +447700900123';

describe('PATCH /registrations/{pe}', () => {
  it('422 lists each bad field with its path, schema and rule problems alike', async () => {
    const schema = {
      extra: true,
      personal: { date_of_birth: 'soon', nickname: 'M' },
      guardians: [{ name: 'G' }],
      travel_inbound: { mode: 'plane', legs: [{ live_status: 'landed' }] },
    };
    const before = await snapshotDb(t.deps);
    const res = await app.inject({
      method: 'PATCH',
      url: `${P}/registrations/${world.regs.minorA.id}`,
      headers: bearer(minorToken),
      payload: schema,
    });
    expect(res.statusCode).toBe(422);
    expectProblems(res.json(), [
      { field: 'body', message: 'body has unknown field: extra' },
      { field: 'personal', message: 'personal has unknown field: nickname' },
      {
        field: 'personal.date_of_birth',
        message: 'personal.date_of_birth must be a valid date (YYYY-MM-DD) or null',
      },
      { field: 'guardians[0].email', message: 'guardians[0].email is required' },
      {
        field: 'travel_inbound.legs[0]',
        message: 'travel_inbound.legs[0] has unknown field: live_status',
      },
    ]);

    const rules = {
      phone: '12',
      personal: { date_of_birth: '2999-01-01' },
      emergency_contacts: [{ name: 'A', phone: 'call me', relationship: 'aunt' }],
      guardians: [
        { name: 'G', email: 'g@x.org', is_primary: true },
        { name: 'H', email: 'G@x.org', is_primary: true },
      ],
      travel_outbound: { mode: 'plane', legs: [{ departure_airport: 'LOND', flight_code: 'flight 12' }] },
    };
    const res2 = await app.inject({
      method: 'PATCH',
      url: `${P}/registrations/${world.regs.minorA.id}`,
      headers: bearer(minorToken),
      payload: rules,
    });
    expect(res2.statusCode).toBe(422);
    expectProblems(res2.json(), [
      { field: 'phone', message: `phone ${PHONE}` },
      { field: 'personal.date_of_birth', message: 'personal.date_of_birth must not be in the future' },
      { field: 'emergency_contacts[0].phone', message: `emergency_contacts[0].phone ${PHONE}` },
      { field: 'guardians[1].email', message: 'guardians[1].email duplicates guardians[0].email' },
      { field: 'guardians', message: 'guardians: at most one guardian can be is_primary' },
      {
        field: 'travel_outbound.legs[0].departure_airport',
        message: 'travel_outbound.legs[0].departure_airport must be a 3-letter IATA airport code, e.g. LHR',
      },
      {
        field: 'travel_outbound.legs[0].flight_code',
        message: 'travel_outbound.legs[0].flight_code must be an IATA flight number, e.g. BA117',
      },
    ]);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});

describe('PATCH /guardian/{token}', () => {
  it('422 lists each bad field with its path', async () => {
    const before = await snapshotDb(t.deps);
    const res = await app.inject({
      method: 'PATCH',
      url: `${P}/guardian/${guardianToken}`,
      payload: { email: 'new@example.com', media_permission: 'maybe' },
    });
    expect(res.statusCode).toBe(422);
    expectProblems(res.json(), [
      { field: 'body', message: 'body has unknown field: email' },
      { field: 'media_permission', message: 'media_permission must be one of "granted", "denied"' },
    ]);
    const rules = await app.inject({
      method: 'PATCH',
      url: `${P}/guardian/${guardianToken}`,
      payload: {
        phone: 'call me',
        emergency_contacts: [
          { name: 'N', phone: '+447700900123', relationship: 'x' },
          { name: 'M', phone: '123', relationship: 'x' },
        ],
      },
    });
    expect(rules.statusCode).toBe(422);
    expectProblems(rules.json(), [
      { field: 'phone', message: `phone ${PHONE}` },
      { field: 'emergency_contacts[1].phone', message: `emergency_contacts[1].phone ${PHONE}` },
    ]);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});

describe('import', () => {
  it('the 422 names each item field as items[i].path', async () => {
    const items = [
      { email: 'ok@example.org', personal: { legal_first_name: 'O', legal_last_name: 'K' } },
      { email: 'bad@example.org', personal: { date_of_birth: 'soon' }, extra: 1 },
      { email: 'OK@example.org' },
    ] as unknown as ImportItem[];
    const before = await snapshotDb(t.deps);
    const error = await t.deps.db
      .transaction((tx) => importParticipants(tx, world.events.A.id, items))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiError);
    const { statusCode, message, extra } = error as ApiError;
    expect(statusCode).toBe(422);
    const problems = [
      { field: 'items[1]', message: 'items[1] (bad@example.org): item has unknown field: extra' },
      {
        field: 'items[1].personal.date_of_birth',
        message:
          'items[1] (bad@example.org): personal.date_of_birth must be a valid date (YYYY-MM-DD) or null',
      },
      { field: 'items[2].email', message: 'items[2] (OK@example.org): email duplicates items[0]' },
    ];
    expect(extra).toEqual({ problems });
    expect(message).toBe(`Invalid import (3 problems): ${problems.map((p) => p.message).join('; ')}`);

    const newPerson = await t.deps.db
      .transaction((tx) =>
        importParticipants(tx, world.events.A.id, [{ email: 'new@example.org', personal: {} }]),
      )
      .then(
        () => null,
        (e: unknown) => e as ApiError,
      );
    expect(newPerson?.extra.problems).toEqual([
      {
        field: 'items[0].personal.legal_first_name',
        message:
          'items[0] (new@example.org): personal.legal_first_name and personal.legal_last_name are required for a new participant',
      },
    ]);
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
