/**
 * Signature checks of the inbound receivers (docs/decisions.md "Messaging"; quality.md "Webhooks"), all on the RAW
 * request body and all constant-time. Each returns true only for a valid, fresh signature.
 *
 * - email, esign (Muster scheme; Postmark and DocuSeal sign nothing themselves): headers
 *   `X-Muster-Timestamp: <unix seconds>` and `X-Muster-Signature: v1=<hex HMAC-SHA256(secret,
 *   "<timestamp>.<raw body>")>`, 5-minute window.
 * - helpdesk (Help Scout): `X-HelpScout-Signature: base64(HMAC-SHA1(secret, raw body))`; Help Scout
 *   sends no timestamp, so replays are stopped by the event-id dedupe alone.
 * - chat (Slack v0): `X-Slack-Signature: v0=<hex HMAC-SHA256(secret, "v0:<ts>:<raw body>")>`,
 *   `X-Slack-Request-Timestamp`, 5-minute window.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../lib/secrets.js';

/** Allowed clock skew between the provider's timestamp and ours, either way (seconds). */
export const TIMESTAMP_WINDOW_SECONDS = 5 * 60;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** A unix-seconds timestamp within the window of `nowMs`. */
function fresh(timestamp: string | undefined, nowMs: number): timestamp is string {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(nowMs / 1000 - Number(timestamp)) <= TIMESTAMP_WINDOW_SECONDS;
}

/** `v1=` + hex HMAC-SHA256 over `<timestamp>.<body>`: what a sender of the Muster scheme puts in X-Muster-Signature. */
export function musterSignature(secret: string, timestamp: string, body: Buffer | string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return `v1=${mac}`;
}

export function verifyMuster(secret: string, headers: Headers, body: Buffer, nowMs: number): boolean {
  const timestamp = header(headers, 'x-muster-timestamp');
  const signature = header(headers, 'x-muster-signature');
  if (!signature || !fresh(timestamp, nowMs)) return false;
  return safeEqual(signature, musterSignature(secret, timestamp, body));
}

/** base64 HMAC-SHA1 of the body: Help Scout's X-HelpScout-Signature. */
export function helpScoutSignature(secret: string, body: Buffer | string): string {
  return createHmac('sha1', secret).update(body).digest('base64');
}

export function verifyHelpScout(secret: string, headers: Headers, body: Buffer): boolean {
  const signature = header(headers, 'x-helpscout-signature');
  return !!signature && safeEqual(signature, helpScoutSignature(secret, body));
}

/** Slack's `v0=` signature over `v0:<timestamp>:<body>`. */
export function slackSignature(secret: string, timestamp: string, body: Buffer | string): string {
  const mac = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex');
  return `v0=${mac}`;
}

export function verifySlack(secret: string, headers: Headers, body: Buffer, nowMs: number): boolean {
  const timestamp = header(headers, 'x-slack-request-timestamp');
  const signature = header(headers, 'x-slack-signature');
  if (!signature || !fresh(timestamp, nowMs)) return false;
  return safeEqual(signature, slackSignature(secret, timestamp, body));
}
