/**
 * What each receiver takes from a verified body (docs/decisions.md "Messaging"): the provider's event id (replay
 * dedupe key), the event type, and the JSON payload the job works from. A verified body that is not
 * JSON is 400; JSON of the wrong shape is 422 — never a 500.
 */
import { createHash } from 'node:crypto';
import { badRequest, unprocessable } from '../lib/errors.js';
import { obj } from './payload.js';

export type WebhookProvider = 'email' | 'helpdesk' | 'esign' | 'chat';

export interface Intake {
  eventId: string;
  eventType: string;
  payload: Record<string, unknown>;
}

/** Parses the raw body as a JSON object; NUL characters and lone surrogates (jsonb refuses them) are cleaned. */
export function parseObject(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('Malformed JSON body');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw unprocessable('Body must be a JSON object');
  return cleanObject(value);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text without NUL characters, lone surrogates replaced (PostgreSQL refuses both in jsonb). */
const cleanText = (text: string): string => text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');

const cleanObject = (value: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).map(([k, v]) => [cleanText(k), clean(v)]));

function clean(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value === 'object' && value !== null) return cleanObject(value);
  return value;
}

const digest = (raw: Buffer) => `sha256:${createHash('sha256').update(raw).digest('hex')}`;
/** An id or type as sent (no trimming); over 200 characters counts as absent. */
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined;
const idOf = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : str(v);

/**
 * Postmark-style: `RecordType` names the event (Delivery, Bounce, Open, SpamComplaint, …). A bounce
 * carries its own `ID`; other records have none, so the body's digest is the key (a redelivery is
 * byte-identical).
 */
export function emailIntake(raw: Buffer): Intake {
  const payload = parseObject(raw);
  const type = str(payload.RecordType);
  if (!type) throw unprocessable('RecordType is required');
  const bounceId = type === 'Bounce' ? idOf(payload.ID) : undefined;
  return { eventId: bounceId ? `bounce:${bounceId}` : digest(raw), eventType: type, payload };
}

/** Help Scout-style: the event type is the `X-HelpScout-Event` header; the body is the conversation or customer. */
export function helpdeskIntake(raw: Buffer, eventHeader: string | undefined): Intake {
  const payload = parseObject(raw);
  const type = str(eventHeader);
  if (!type) throw unprocessable('X-HelpScout-Event header is required');
  return { eventId: `${type}:${digest(raw)}`, eventType: type, payload };
}

/** DocuSeal-style: `{event_type, timestamp, data:{id, …}}`. */
export function esignIntake(raw: Buffer): Intake {
  const payload = parseObject(raw);
  const type = str(payload.event_type);
  if (!type) throw unprocessable('event_type is required');
  const data = obj(payload.data);
  const dataId = idOf(data?.id);
  const stamp = str(payload.timestamp);
  const eventId = dataId && stamp ? `${type}:${dataId}:${stamp}` : digest(raw);
  return { eventId, eventType: type, payload };
}

/** Slack Events API outcome: a challenge to echo, an event to record, or nothing to do. */
export type ChatIntake =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'event'; intake: Intake }
  | { kind: 'ignored' };

export function chatIntake(raw: Buffer): ChatIntake {
  const payload = parseObject(raw);
  if (payload.type === 'url_verification') {
    if (typeof payload.challenge !== 'string' || payload.challenge.length > 500)
      throw unprocessable('challenge is required');
    return { kind: 'challenge', challenge: payload.challenge };
  }
  if (payload.type !== 'event_callback') return { kind: 'ignored' };
  const eventId = str(payload.event_id);
  const event = obj(payload.event);
  const type = str(event?.type);
  if (!eventId || !type) throw unprocessable('event_id and event.type are required');
  // The deprecated verification token is a secret of its own: never stored.
  const { token: _token, ...rest } = payload;
  return { kind: 'event', intake: { eventId, eventType: type, payload: rest } };
}
