/**
 * Reads of the participant side (docs/decisions.md "Registration side"): the caller's own registrations as tickets, and
 * consent rows in the spec's ParticipantDetail `consents[]` shape. Ownership is the gate's
 * (access/own.ts).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import type { RegistrationStatus } from '../../../db/schema/index.js';
import { notFound } from '../../../lib/errors.js';
import { isoSqlText } from '../../../lib/time.js';
import { REGISTRATION_NOT_FOUND } from './lifecycle.js';
import type { ConsentJson, TicketJson } from './registration.schemas.js';

const DISPLAY_STATUS: Record<RegistrationStatus, string> = {
  invited: 'Invited',
  in_progress: 'Registration in progress',
  awaiting_guardian: 'Awaiting guardian approval',
  complete: 'Confirmed',
  withdrawn: 'Withdrawn',
  rejected: 'Not accepted',
};

type TicketRow = {
  id: number;
  uuid: string;
  participant_id: number;
  status: RegistrationStatus;
  attendee_name: string;
  checked_in: boolean;
  event: TicketJson['event'];
};

const TICKET_SELECT = sql.raw(`
  SELECT r.id, r.uuid, p.id AS participant_id, r.status,
         COALESCE(NULLIF(btrim(p.preferred_name), ''), p.legal_first_name || ' ' || p.legal_last_name) AS attendee_name,
         EXISTS (SELECT 1 FROM scans s JOIN scan_contexts c ON c.id = s.scan_context_id
                  WHERE s.registration_id = r.id AND c.checks_in) AS checked_in,
         json_build_object('id', e.id, 'uuid', e.uuid, 'name', e.name, 'slug', e.slug,
           'starts_at', ${isoSqlText('e.starts_at')}, 'ends_at', ${isoSqlText('e.ends_at')},
           'timezone', e.timezone, 'venue_name', e.venue_name, 'location_city', e.location_city,
           'location_country', e.location_country, 'location_address', e.location_address,
           'location_latitude', e.location_latitude, 'location_longitude', e.location_longitude,
           'logo_url', e.logo_url, 'banner_url', e.banner_url,
           'support_email', e.support_email) AS event
    FROM registrations r
    JOIN people p ON p.id = r.person_id
    JOIN events e ON e.id = r.event_id`);

/**
 * One ticket. `qr_payload` is the bare `registration_uuid` (docs/decisions.md "Check-in"): any scanner app passes
 * it through unchanged and it names exactly one registration. `onboarding_url` is the absolute
 * link of the web page that continues this registration (`/register/{id}`; sign-in first).
 */
function ticketJson(row: TicketRow, baseUrl: string): TicketJson {
  return {
    id: row.id,
    registration_uuid: row.uuid,
    participant_id: row.participant_id,
    status: row.status,
    display_status: DISPLAY_STATUS[row.status],
    confirmed: row.status === 'complete',
    checked_in: row.checked_in,
    attendee_name: row.attendee_name,
    qr_payload: row.uuid,
    short_code: String(row.id),
    onboarding_url: `${baseUrl.replace(/\/$/, '')}/register/${row.id}`,
    event: row.event,
  };
}

async function ticketRows(tx: Tx, where: SQL, baseUrl: string): Promise<TicketJson[]> {
  const res = await tx.execute<TicketRow>(
    sql`${TICKET_SELECT} WHERE ${where} ORDER BY e.starts_at NULLS LAST, r.id`,
  );
  return res.rows.map((row) => ticketJson(row, baseUrl));
}

/** The user's registrations, earliest event first; links under `baseUrl` (the public base URL). */
export function ticketsOf(tx: Tx, userId: number, baseUrl: string): Promise<TicketJson[]> {
  return ticketRows(tx, sql`p.user_id = ${userId}`, baseUrl);
}

/** One registration as a ticket (no ownership check: callers check it first). */
export async function ticketById(tx: Tx, registrationId: number, baseUrl: string): Promise<TicketJson> {
  const [ticket] = await ticketRows(tx, sql`r.id = ${registrationId}`, baseUrl);
  if (!ticket) throw notFound(REGISTRATION_NOT_FOUND);
  return ticket;
}

const CONSENT_SELECT = sql.raw(`
  SELECT c.id, c.consent_type, c.status, c.pending_on,
         ${isoSqlText('c.sent_at')} AS sent_at, ${isoSqlText('c.viewed_at')} AS viewed_at,
         ${isoSqlText('c.participant_signed_at')} AS participant_signed_at,
         ${isoSqlText('c.guardian_signed_at')} AS guardian_signed_at,
         ${isoSqlText('c.signed_at')} AS signed_at, c.document_url, c.failure_reason
    FROM consents c`);

/** A registration's consents, by id. */
export async function consentsOf(tx: Tx, registrationId: number): Promise<ConsentJson[]> {
  const res = await tx.execute<ConsentJson>(
    sql`${CONSENT_SELECT} WHERE c.registration_id = ${registrationId} ORDER BY c.id`,
  );
  return res.rows;
}

/** One consent in the wire shape. */
export async function consentById(tx: Tx, consentId: number): Promise<ConsentJson> {
  const res = await tx.execute<ConsentJson>(sql`${CONSENT_SELECT} WHERE c.id = ${consentId}`);
  if (!res.rows[0]) throw notFound('Consent not found');
  return res.rows[0];
}
