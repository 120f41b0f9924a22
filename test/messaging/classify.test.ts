/**
 * How provider failures are classified for the delivery worker (integrations/chat-provider.ts):
 * the errors the official WebClient throws, built by calling it against the local fake.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChatProtocolError,
  classifyChatError,
  createChatSender,
} from '../../src/integrations/chat-provider.js';
import { createLogger } from '../../src/logger.js';
import { type FakeSlack, startFakeSlack } from '../support/slack-fake.js';

let slack: FakeSlack;
const log = createLogger('silent');
const chat = (token: string, url = '') => ({
  baseUrl: url || slack.apiUrl,
  botToken: token,
  concurrency: 2,
  maxAttempts: 3,
  leaseSeconds: 5,
  retryBaseMs: 10,
});

beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack?.close();
});

async function failure(send: () => Promise<unknown>) {
  try {
    await send();
  } catch (error) {
    return classifyChatError(error);
  }
  throw new Error('expected a failure');
}

describe('classifyChatError', () => {
  it('provider error codes: permanent unless known transient', async () => {
    const sender = createChatSender(chat(slack.token), log);
    slack.permanent.set('UGONE', 'user_not_found');
    expect(await failure(() => sender.sendDirect('UGONE', 'x', 1))).toEqual({
      kind: 'permanent',
      reason: 'user_not_found',
    });
    slack.permanent.set('UBUSY', 'internal_error');
    expect(await failure(() => sender.sendDirect('UBUSY', 'x', 1))).toEqual({
      kind: 'transient',
      reason: 'internal_error',
    });
    const wrongToken = createChatSender(chat('xoxb-wrong'), log);
    expect(await failure(() => wrongToken.sendDirect('UX', 'x', 1))).toEqual({
      kind: 'permanent',
      reason: 'invalid_auth',
    });
  });

  it('HTTP 5xx after the client retries is transient; a refused connection is a network error', async () => {
    const sender = createChatSender(chat(slack.token), log);
    slack.transient.set('UDOWN', 10);
    expect(await failure(() => sender.sendDirect('UDOWN', 'x', 1))).toEqual({
      kind: 'transient',
      reason: 'http_503',
    });
    expect(slack.transient.get('UDOWN')).toBe(7); // 1 try + 2 client retries
    const nowhere = createChatSender(chat(slack.token, 'http://127.0.0.1:9/api/'), log);
    expect(await failure(() => nowhere.sendDirect('UX', 'x', 1))).toEqual({
      kind: 'transient',
      reason: 'network_error',
    });
  });

  it('still rate limited after the client waited Retry-After: rescheduled, not an attempt', async () => {
    const sender = createChatSender(chat(slack.token), log);
    slack.rateLimitNext(3, 1);
    expect(await failure(() => sender.sendDirect('URATE', 'x', 1))).toEqual({
      kind: 'rate_limited',
      reason: 'ratelimited',
      retryAfterMs: 1000,
    });
    expect(classifyChatError(new ChatProtocolError('no ts'))).toEqual({ kind: 'permanent', reason: 'no ts' });
  }, 30_000);
});
