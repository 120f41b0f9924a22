/**
 * How a scan or an undo names its participant (docs/decisions.md "Check-in"), as `participant_id` or the undo
 * path's `{ref}`:
 * - a bare number: a registration id in the event, else a person id registered in it (that order);
 * - a registration UUID (`registration_uuid`, the tickets' `qr_payload`), bare or after
 *   `muster://checkin/` or `attend://checkin/` (the mobile app passes what follows
 *   `attend://checkin/` or `attend:P:`, or a bare UUID);
 * - `muster://checkin/<person id>` (badges printed before tickets carried the UUID);
 * - `attend://checkin/<number>`: read like a bare number;
 * - or, in a scan body, `badge_token` (an NFC badge).
 * Anything else names nobody (404 `Participant not found for this event`).
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

const MUSTER_QR = 'muster://checkin/';
const ATTEND_QR = 'attend://checkin/';
const INT = /^[0-9]{1,9}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `number`: registration id, else person id; `person`: person id; `uuid`: registration UUID
 * (lower case); `badge`: NFC token; `none`: names nobody.
 */
export type ParticipantRef =
  | { kind: 'number' | 'person'; value: number }
  | { kind: 'uuid' | 'badge'; value: string }
  | { kind: 'none'; value: null };

const NOBODY: ParticipantRef = { kind: 'none', value: null };

/** The reference a `participant_id` (or an undo path segment) carries. */
export function parseParticipantId(input: number | string): ParticipantRef {
  const raw = typeof input === 'number' ? String(input) : input.trim();
  const uuidOrNumber = (text: string, number: 'number' | 'person'): ParticipantRef => {
    if (UUID.test(text)) return { kind: 'uuid', value: text.toLowerCase() };
    return INT.test(text) ? { kind: number, value: Number(text) } : NOBODY;
  };
  if (raw.startsWith(MUSTER_QR)) return uuidOrNumber(raw.slice(MUSTER_QR.length), 'person');
  if (raw.startsWith(ATTEND_QR)) return uuidOrNumber(raw.slice(ATTEND_QR.length), 'number');
  return uuidOrNumber(raw, 'number');
}

/** The reference a scan body carries (`participant_id` wins over `badge_token`). */
export function participantRef(input: {
  participant_id?: number | string;
  badge_token?: string;
}): ParticipantRef {
  if (input.participant_id !== undefined) return parseParticipantId(input.participant_id);
  if (input.badge_token !== undefined) return { kind: 'badge', value: input.badge_token };
  return NOBODY;
}

/**
 * SQL scalar: the id of the registration of event `event` that a reference of `kind` with value
 * `ref` names, or NULL. `event` and `ref` are SQL (bound values or placeholders), so one text
 * serves every value of a kind (db/prepared.ts). A `uuid` ref must already match the UUID form.
 */
export function registrationIdSql(kind: ParticipantRef['kind'], event: SQLWrapper, ref: SQLWrapper): SQL {
  const byPerson = sql`(SELECT id FROM registrations WHERE event_id = ${event} AND person_id = ${ref} ORDER BY id LIMIT 1)`;
  switch (kind) {
    case 'number':
      return sql`COALESCE((SELECT id FROM registrations WHERE event_id = ${event} AND id = ${ref}), ${byPerson})`;
    case 'person':
      return byPerson;
    case 'uuid':
      return sql`(SELECT id FROM registrations WHERE event_id = ${event} AND uuid = (${ref})::uuid)`;
    case 'badge':
      return sql`(SELECT id FROM registrations WHERE event_id = ${event} AND nfc_badge_token = ${ref})`;
    case 'none':
      return sql`NULL::int`;
  }
}
