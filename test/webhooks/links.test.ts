/**
 * POST /webhooks/helpdesk and /webhooks/chat effects (docs/decisions.md "Messaging"), with the job worker running:
 * help-desk conversations are linked to the user with the customer's email; Slack `team_join` /
 * `user_change` link `chat_user_id` to the person with the user's email (and unlink on change or
 * deletion). A replayed event changes nothing.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatAccounts, helpdeskConversations, people, users } from '../../src/db/schema/index.js';
import { startWorker } from '../../src/jobs/runner.js';
import { snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import { buildWorld, type World } from '../support/world.js';
import { drain, SECRETS, signedRequest } from './helpers.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await startTestApp(SECRETS);
  world = await buildWorld(t.deps);
  await startWorker(t.deps, { pollingIntervalSeconds: 0.5 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function deliver(provider: 'helpdesk' | 'chat', body: unknown, event?: string) {
  const res = await t.app.inject(signedRequest(provider, JSON.stringify(body), { event }));
  expect(res.statusCode, res.body).toBe(200);
  return drain(t);
}

const conversation = (id: number, email: string, extra: Record<string, unknown> = {}) => ({
  id,
  number: id + 1000,
  subject: 'Where do I park?',
  status: 'active',
  primaryCustomer: { id: 555, email, first: 'Ed', last: 'Admin' },
  ...extra,
});

async function conversationRow(id: number) {
  const rows = await t.deps.db
    .select()
    .from(helpdeskConversations)
    .where(eq(helpdeskConversations.conversationId, String(id)));
  return rows[0];
}

describe('help desk', () => {
  it('links a conversation to the user with the customer email (case-insensitive)', async () => {
    const admin = world.users.eventAdmin;
    await deliver('helpdesk', conversation(101, admin.email.toUpperCase()), 'convo.created');
    expect(await conversationRow(101)).toMatchObject({
      userId: admin.id,
      customerEmail: admin.email.toLowerCase(),
      subject: 'Where do I park?',
      status: 'active',
    });
    const [user] = await t.deps.db.select().from(users).where(eq(users.id, admin.id));
    expect(user!.helpdeskCustomerId).toBe('555');
  });

  it('keeps an unknown customer unlinked, updates on later events, and forgets a deleted conversation', async () => {
    await deliver('helpdesk', conversation(102, 'stranger@example.org'), 'convo.created');
    expect(await conversationRow(102)).toMatchObject({ userId: null, customerEmail: 'stranger@example.org' });
    await deliver(
      'helpdesk',
      conversation(102, 'stranger@example.org', { status: 'closed' }),
      'convo.status',
    );
    expect((await conversationRow(102))!.status).toBe('closed');
    await deliver('helpdesk', { id: 102 }, 'convo.deleted');
    expect(await conversationRow(102)).toBeUndefined();
  });

  it('a replayed delivery changes nothing', async () => {
    const body = conversation(103, world.users.ops.email);
    await deliver('helpdesk', body, 'convo.created');
    const before = await snapshotDb(t.deps);
    await deliver('helpdesk', body, 'convo.created');
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});

const slackEvent = (eventId: string, type: string, user: Record<string, unknown>) => ({
  token: 'legacy-verification-token',
  team_id: 'T1',
  type: 'event_callback',
  event_id: eventId,
  event_time: 1_700_000_000,
  event: { type, user },
});

async function personChatId(personId: number) {
  const [row] = await t.deps.db.select().from(people).where(eq(people.id, personId));
  return row!.chatUserId;
}

describe('chat workspace', () => {
  it('team_join links chat_user_id to the person with that email, and records the chat account', async () => {
    const adult = world.regs.adultA;
    const updatedBefore = await t.deps.db.execute<{ u: string }>(
      sql`SELECT updated_at::text AS u FROM registrations WHERE id = ${adult.id}`,
    );
    await deliver(
      'chat',
      slackEvent('EvJoin1', 'team_join', {
        id: 'UNEW1',
        name: 'ada',
        profile: { email: adult.email.toUpperCase(), real_name: 'Ada L' },
      }),
    );
    expect(await personChatId(adult.personId)).toBe('UNEW1');
    const [account] = await t.deps.db.select().from(chatAccounts).where(eq(chatAccounts.chatUserId, 'UNEW1'));
    expect(account).toMatchObject({ email: adult.email.toLowerCase(), displayName: 'Ada L' });
    const updatedAfter = await t.deps.db.execute<{ u: string }>(
      sql`SELECT updated_at::text AS u FROM registrations WHERE id = ${adult.id}`,
    );
    expect(updatedAfter.rows[0]!.u > updatedBefore.rows[0]!.u).toBe(true);
    const stored = await t.deps.db.execute<{ p: string }>(
      sql`SELECT payload::text AS p FROM webhook_events WHERE event_id = 'EvJoin1'`,
    );
    expect(stored.rows[0]!.p).not.toContain('legacy-verification-token');
  });

  it('user_change to another address moves the link; a deleted user is unlinked', async () => {
    const adult = world.regs.adultA;
    const other = world.regs.regB;
    await deliver(
      'chat',
      slackEvent('EvChange1', 'user_change', { id: 'UNEW1', profile: { email: other.email } }),
    );
    expect(await personChatId(adult.personId)).toBeNull();
    expect(await personChatId(other.personId)).toBe('UNEW1');
    await deliver(
      'chat',
      slackEvent('EvChange2', 'user_change', { id: 'UNEW1', deleted: true, profile: {} }),
    );
    expect(await personChatId(other.personId)).toBeNull();
  });

  it('other events are recorded and ignored; a replay changes nothing', async () => {
    const outcomes = await deliver('chat', slackEvent('EvMsg1', 'message', { id: 'U1' }));
    expect(outcomes.EvMsg1).toBe('ignored');
    const body = slackEvent('EvJoin2', 'team_join', {
      id: 'UNEW2',
      profile: { email: world.regs.regC.email },
    });
    await deliver('chat', body);
    expect(await personChatId(world.regs.regC.personId)).toBe('UNEW2');
    const before = await snapshotDb(t.deps);
    const res = await t.app.inject(signedRequest('chat', JSON.stringify(body)));
    expect(res.json()).toEqual({ received: true, duplicate: true });
    expect(await snapshotDb(t.deps)).toEqual(before);
  });
});
