/**
 * One delivery attempt and its record (docs/webhooks.md "Outbound", "Delivery"): the target is
 * checked again (targets.ts: a name that now resolves to a private address is refused without
 * connecting), the body is signed with the `standardwebhooks` package under the endpoint's secret
 * (and the previous one during a rotation: two signatures) and sent (send.ts); the outcome (the
 * delivery's next state per the retry schedule) is recorded in batches by record.ts.
 */
import { Webhook } from 'standardwebhooks';
import type { Deps } from '../../deps.js';
import { type AttemptResult, post } from './send.js';
import { checkUrl, resolveTarget, TargetRefused } from './targets.js';

/** A claimed delivery (claim.ts claimDue). */
export type Claimed = {
  delivery_id: number;
  endpoint_id: number;
  /** This attempt's number (1 = first). */
  attempts: number;
  url: string;
  secret_sealed: string;
  previous_sealed: string | null;
  msg_id: string;
  body: string;
};

/** `webhook-signature`: one `v1,…` per valid secret, space separated (Standard Webhooks). */
export function signatures(secrets: string[], msgId: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(' ');
}

const secretCache = new Map<string, string>();
function unsealed(deps: Deps, sealed: string): string {
  let secret = secretCache.get(sealed);
  if (secret === undefined) {
    secret = deps.sealer.unseal<string>(sealed);
    if (secretCache.size > 1000) secretCache.clear();
    secretCache.set(sealed, secret);
  }
  return secret;
}

async function send(deps: Deps, row: Claimed): Promise<AttemptResult> {
  const cfg = deps.config.outboundWebhooks;
  try {
    const url = checkUrl(row.url, cfg);
    const target = await resolveTarget(url, cfg);
    const at = new Date();
    const secrets = [row.secret_sealed, ...(row.previous_sealed ? [row.previous_sealed] : [])].map((s) =>
      unsealed(deps, s),
    );
    const headers = {
      'webhook-id': row.msg_id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatures(secrets, row.msg_id, at, row.body),
    };
    return await post(url, target, headers, row.body, cfg.timeoutMs);
  } catch (error) {
    if (error instanceof TargetRefused)
      return { status: null, durationMs: 0, excerpt: null, error: error.message };
    throw error;
  }
}

/** What one attempt leads to: the delivery's next state and, when pending, the delay in seconds. */
export interface Outcome {
  row: Claimed;
  result: AttemptResult;
  ok: boolean;
  next: 'succeeded' | 'failed' | 'pending';
  delaySeconds: number;
}

/** Runs one attempt of a claimed delivery; the caller records it (record.ts). Never throws for HTTP. */
export async function attempt(deps: Deps, row: Claimed): Promise<Outcome> {
  const result = await send(deps, row);
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const schedule = deps.config.outboundWebhooks.retrySchedule;
  const last = row.attempts >= schedule.length;
  const next = ok ? 'succeeded' : last ? 'failed' : 'pending';
  return { row, result, ok, next, delaySeconds: last ? 0 : schedule[row.attempts]! };
}
