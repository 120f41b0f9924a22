/**
 * Signing and polling helpers for the inbound-receiver tests: requests signed exactly as each
 * provider signs them (test-side re-implementations, not imports of src/webhooks/verify.ts).
 */
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import type { TestApp } from '../support/app.js';

export const SECRETS = {
  MUSTER_EMAIL_WEBHOOK_SECRET: 'email-webhook-secret-0123456789',
  MUSTER_HELPDESK_WEBHOOK_SECRET: 'helpdesk-webhook-secret-0123',
  MUSTER_ESIGN_WEBHOOK_SECRET: 'esign-webhook-secret-0123456789',
  MUSTER_CHAT_SIGNING_SECRET: 'chat-signing-secret-0123456789',
};

export type Provider = 'email' | 'helpdesk' | 'esign' | 'chat';
export const PROVIDERS: Provider[] = ['email', 'helpdesk', 'esign', 'chat'];

const SECRET_OF: Record<Provider, string> = {
  email: SECRETS.MUSTER_EMAIL_WEBHOOK_SECRET,
  helpdesk: SECRETS.MUSTER_HELPDESK_WEBHOOK_SECRET,
  esign: SECRETS.MUSTER_ESIGN_WEBHOOK_SECRET,
  chat: SECRETS.MUSTER_CHAT_SIGNING_SECRET,
};

export interface SignOptions {
  /** Unix seconds used in the signature (default now). */
  timestamp?: number;
  secret?: string;
  /** Body actually sent (default: the signed one) — to test tampering. */
  sendBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Help Scout event header (default convo.created). */
  event?: string;
}

const hmac = (alg: string, key: string, ...parts: (string | Buffer)[]) => {
  const h = createHmac(alg, key);
  for (const p of parts) h.update(p);
  return h;
};

/** An inject request to POST /api/v1/webhooks/<provider>, signed as that provider signs. */
export function signedRequest(
  provider: Provider,
  body: string | Buffer,
  opts: SignOptions = {},
): InjectOptions {
  const secret = opts.secret ?? SECRET_OF[provider];
  const ts = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (provider === 'email' || provider === 'esign') {
    headers['x-muster-timestamp'] = ts;
    headers['x-muster-signature'] = `v1=${hmac('sha256', secret, `${ts}.`, body).digest('hex')}`;
  } else if (provider === 'helpdesk') {
    headers['x-helpscout-signature'] = hmac('sha1', secret, body).digest('base64');
    headers['x-helpscout-event'] = opts.event ?? 'convo.created';
  } else {
    headers['x-slack-request-timestamp'] = ts;
    headers['x-slack-signature'] = `v0=${hmac('sha256', secret, `v0:${ts}:`, body).digest('hex')}`;
  }
  return {
    method: 'POST',
    url: `/api/v1/webhooks/${provider}`,
    headers: { ...headers, ...(opts.headers ?? {}) },
    payload: opts.sendBody ?? body,
  };
}

export async function webhookJobCount(t: TestApp): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-process'`,
  );
  return Number(res.rows[0]!.n);
}

export async function webhookRowCount(t: TestApp): Promise<number> {
  const res = await t.deps.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_events`);
  return Number(res.rows[0]!.n);
}

/** Waits until every stored webhook event has been processed by the worker; returns their outcomes. */
export async function drain(t: TestApp, timeoutMs = 30_000): Promise<Record<string, string | null>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.deps.db.execute<{ event_id: string; outcome: string | null; done: boolean }>(
      sql`SELECT event_id, outcome, processed_at IS NOT NULL AS done FROM webhook_events`,
    );
    if (res.rows.every((r) => r.done))
      return Object.fromEntries(res.rows.map((r) => [r.event_id, r.outcome]));
    if (Date.now() > deadline) throw new Error('webhook events were not processed in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
