/**
 * The outbound webhook event types and their payloads (docs/webhooks.md "Outbound"). Every payload
 * is `{type, timestamp, data}`; `data` carries ids only (never a name, an email or a sensitive
 * value: receivers re-fetch through the API with their own credential) and always `event_id`, the
 * numeric id of the event where it happened. The SQL emitters (migration
 * 0017_outbound_webhooks.sql) and `emitWebhook()` write exactly these shapes; the OpenAPI
 * document's `webhooks` section is built from them.
 */
import { type TObject, type TProperties, Type } from 'typebox';
import { keysOf } from '../../lib/narrow.js';

const id = (description: string) => Type.Integer({ description });
const ts = (description: string) => Type.String({ format: 'date-time', description });
const REG = { participant_event_id: id('The registration (`GET /events/{event_id}/participants/{id}`)') };

/** Type → `data` properties (besides `event_id`) and what it announces. */
export const EVENT_TYPES = {
  'registration.created': {
    summary: 'A registration was created (invitation accepted, self-registration, import).',
    data: { ...REG, participant_id: id('The person'), status: Type.String({ description: 'Its status' }) },
  },
  'registration.status_changed': {
    summary: 'A registration moved from one status to another.',
    data: { ...REG, participant_id: id('The person'), from: Type.String(), to: Type.String() },
  },
  'registration.updated': {
    summary:
      'A registration record was edited (by the participant, a guardian or staff); `sections` names what changed.',
    data: { ...REG, sections: Type.Array(Type.String(), { description: 'Changed section names' }) },
  },
  'scan.created': {
    summary: 'A scan was recorded at the door (entry or exit).',
    data: {
      ...REG,
      scan_id: id('The scan'),
      scan_context_id: id('Its scan context'),
      type: Type.Union([Type.Literal('entry'), Type.Literal('exit')]),
      verdict: Type.Union(
        [Type.Literal('admitted'), Type.Literal('warning'), Type.Literal('refused'), Type.Null()],
        {
          description: 'The door verdict (null for scans recorded before verdicts existed)',
        },
      ),
      forced: Type.Boolean({ description: 'A refused verdict overridden by staff' }),
      scanned_at: ts('When the scan happened'),
    },
  },
  'scan.deleted': {
    summary: 'A scan was undone.',
    data: { ...REG, scan_id: id('The scan'), scan_context_id: id('Its scan context') },
  },
  'pickup.collected': {
    summary: 'A participant arriving by travel was collected at the pickup point.',
    data: { ...REG, travel_id: id('The inbound travel'), travel_leg_id: id('Its final leg') },
  },
  'guardian.completed': {
    summary: 'A guardian completed their part of a registration.',
    data: { ...REG, guardian_id: id('The guardian') },
  },
  'consent.signed': {
    summary: 'A consent was signed by everyone who must sign it.',
    data: {
      ...REG,
      consent_id: id('The consent'),
      consent_type: Type.String({ description: 'waiver, freedom_waiver, code_of_conduct' }),
    },
  },
  'invitation.accepted': {
    summary: 'An invitation was accepted (a registration now exists for it).',
    data: {
      invitation_id: id('The invitation'),
      participant_event_id: Type.Union([Type.Integer(), Type.Null()]),
    },
  },
  'chat_blast.completed': {
    summary: 'A chat blast finished delivering (`status` completed, or failed when every recipient failed).',
    data: {
      chat_blast_id: id('The chat blast'),
      status: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
    },
  },
  'announcement.sent': {
    summary: 'An email announcement was sent (its emails are queued).',
    data: { announcement_id: id('The announcement') },
  },
  ping: {
    summary: 'A test delivery sent from the webhooks page or `POST …/webhooks/{id}/ping`.',
    data: { webhook_id: id('The endpoint pinged') },
  },
} satisfies Record<string, { summary: string; data: TProperties }>;

export type WebhookEventType = keyof typeof EVENT_TYPES;
export const WEBHOOK_EVENT_TYPES: WebhookEventType[] = keysOf(EVENT_TYPES);

export function isEventType(value: string): value is WebhookEventType {
  return Object.hasOwn(EVENT_TYPES, value);
}

function payloadSchema(type: WebhookEventType): TObject {
  return Type.Object(
    {
      type: Type.Literal(type),
      timestamp: ts('When it happened (the transaction of the change)'),
      data: Type.Object({ event_id: id('The event (numeric id)'), ...EVENT_TYPES[type].data }),
    },
    { additionalProperties: false },
  );
}

const HEADERS = [
  ['webhook-id', 'The message id (`msg_…`): the same on every retry and redelivery; deduplicate by it.'],
  ['webhook-timestamp', 'Unix seconds of this attempt; refuse values far from now.'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the secret (after `whsec_`, base64-decoded); during a rotation two space-separated signatures (new and old secret).',
  ],
] as const;

/** The OpenAPI 3.1 `webhooks` object: one POST per event type, its body schema and headers. */
export function openApiWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: EVENT_TYPES[type].summary,
          description:
            'Standard Webhooks 1.0 delivery (docs/webhooks.md "Outbound"). Answer 2xx within 15 s; anything else is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). Ordering is not promised.',
          tags: ['outbound webhooks'],
          parameters: HEADERS.map(([name, description]) => ({
            name,
            in: 'header',
            required: true,
            description,
            schema: { type: 'string' },
          })),
          requestBody: { required: true, content: { 'application/json': { schema: payloadSchema(type) } } },
          responses: { '2XX': { description: 'Received' } },
        },
      },
    ]),
  );
}
