/** Wire shapes of the participant side of registration (docs/decisions.md "Registration side"). */
import { type Static, Type } from 'typebox';
import { DateTime, EventPlaceFields, Nullable, NullableDateTime } from '../../../http/schema-helpers.js';

const NStr = Nullable(Type.String());

/** The event on a ticket: the mobile app’s ticket screens show its dates, venue, address and map. */
export const TicketEvent = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String({ format: 'uuid' }),
    name: Type.String(),
    slug: Type.String(),
    starts_at: NullableDateTime,
    ends_at: NullableDateTime,
    timezone: Type.String(),
    ...EventPlaceFields,
    logo_url: NStr,
    banner_url: NStr,
    support_email: NStr,
  },
  {
    description:
      'The ticket’s event: the fields of a GET /events entry the ticket screens read (dates, place, logo and banner) plus venue, map position and support address',
  },
);

export const Ticket = Type.Object({
  id: Type.Integer({ description: 'participant_event_id (the registration id)' }),
  registration_uuid: Type.String({
    format: 'uuid',
    description: 'The registration’s random public id (never reused); also its `qr_payload`',
  }),
  participant_id: Type.Integer(),
  status: Type.String({
    description: 'invited | in_progress | awaiting_guardian | complete | withdrawn | rejected',
  }),
  display_status: Type.String({ examples: ['Confirmed', 'Awaiting guardian approval'] }),
  confirmed: Type.Boolean({ description: 'status is `complete`' }),
  checked_in: Type.Boolean({ description: 'Scanned in any check-in context' }),
  attendee_name: Type.String({ description: 'display_name: preferred name, else legal first + last' }),
  qr_payload: Type.String({
    description:
      'What the ticket’s QR code encodes: the bare `registration_uuid`, which scanner apps pass through unchanged and POST /scans accepts as `participant_id`',
    examples: ['3f0c8a52-7d4e-4c1b-9a8e-2b6f1d0e9c47'],
  }),
  short_code: Type.String({
    description: 'The participant_event_id as text: staff can type it at the door (scans, search)',
  }),
  onboarding_url: Type.String({
    format: 'uri',
    description:
      'Absolute link to the web page that continues this registration (`<MUSTER_BASE_URL>/register/<id>`; the participant signs in first). The mobile app opens it for unconfirmed tickets.',
  }),
  event: TicketEvent,
});
export type TicketJson = Static<typeof Ticket>;

/** The spec's ParticipantDetail `consents[]` entry. */
export const Consent = Type.Object({
  id: Type.Integer(),
  consent_type: Type.String({ description: 'waiver | freedom_waiver | code_of_conduct' }),
  status: Type.String({ description: 'pending | sent | viewed | signed | declined | expired' }),
  pending_on: Nullable(Type.String({ description: 'participant | guardian' })),
  sent_at: NullableDateTime,
  viewed_at: NullableDateTime,
  participant_signed_at: NullableDateTime,
  guardian_signed_at: NullableDateTime,
  signed_at: NullableDateTime,
  document_url: NStr,
  failure_reason: NStr,
});
export type ConsentJson = Static<typeof Consent>;

export const TicketBody = Type.Object({ ticket: Ticket });
export const TicketList = Type.Object({ tickets: Type.Array(Ticket) });
export const SubmitBody = Type.Object({ ticket: Ticket, consents: Type.Array(Consent) });
export const SignBody = Type.Object({ consent: Consent, ticket: Ticket });

export const StartRequest = Type.Object(
  { invitation_token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export const WithdrawRequest = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);
export const SignRequest = Type.Object(
  {
    signature_name: Type.String({
      maxLength: 200,
      description: 'The signer’s full name, typed; trimmed, required',
    }),
  },
  { additionalProperties: false },
);

export const StaffStatusBody = Type.Object({
  success: Type.Literal(true),
  participant_event_id: Type.Integer(),
  status: Type.String(),
  updated_at: DateTime,
});
