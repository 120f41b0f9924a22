/**
 * How a scan or an undo names its participant (contract §9): a registration id, a person id
 * registered in the event, the QR payload `muster://checkin/<person id>`, or an NFC badge token.
 * A bare number is a registration id first, then a person id.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

const QR_PREFIX = 'muster://checkin/';
const INT = /^[0-9]{1,9}$/;

/** `number`: registration id, else person id; `qr`: person id; `badge`: token; `none`: names nobody. */
export type ParticipantRef =
  | { kind: 'number' | 'qr'; value: number }
  | { kind: 'badge'; value: string }
  | { kind: 'none'; value: null };

/** The reference a scan body carries (`participant_id` wins over `badge_token`). */
export function participantRef(input: {
  participant_id?: number | string;
  badge_token?: string;
}): ParticipantRef {
  if (input.participant_id !== undefined) {
    const raw =
      typeof input.participant_id === 'number' ? String(input.participant_id) : input.participant_id.trim();
    if (raw.startsWith(QR_PREFIX)) {
      const id = raw.slice(QR_PREFIX.length);
      return INT.test(id) ? { kind: 'qr', value: Number(id) } : { kind: 'none', value: null };
    }
    return INT.test(raw) ? { kind: 'number', value: Number(raw) } : { kind: 'none', value: null };
  }
  if (input.badge_token !== undefined) return { kind: 'badge', value: input.badge_token };
  return { kind: 'none', value: null };
}

/**
 * SQL scalar: the id of the registration of event `event` that a reference of `kind` with value
 * `ref` names, or NULL. `event` and `ref` are SQL (bound values or placeholders), so one text
 * serves every value of a kind (db/prepared.ts).
 */
export function registrationIdSql(kind: ParticipantRef['kind'], event: SQLWrapper, ref: SQLWrapper): SQL {
  const byPerson = sql`(SELECT id FROM registrations WHERE event_id = ${event} AND person_id = ${ref} ORDER BY id LIMIT 1)`;
  switch (kind) {
    case 'number':
      return sql`COALESCE((SELECT id FROM registrations WHERE event_id = ${event} AND id = ${ref}), ${byPerson})`;
    case 'qr':
      return byPerson;
    case 'badge':
      return sql`(SELECT id FROM registrations WHERE event_id = ${event} AND nfc_badge_token = ${ref})`;
    case 'none':
      return sql`NULL::int`;
  }
}
