/**
 * Stored phone numbers brought to E.164 at start-up (docs/participant-record.md "Phone numbers"):
 * phones written before numbers were normalised on write are parsed with the country of the
 * event they belong to (a person's: their first registration's event), rewritten in E.164, and each
 * change is audited `phones.normalise` with the number as it was typed (`original`) and as stored
 * now (`phone`), so nothing is lost. A number that cannot be read is left as it is (shown as typed)
 * and not audited, so the next start tries it again at the cost of one regular-expression scan.
 * Rows are locked while rewritten, so two processes starting together never audit a row twice.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { normalisePhone, regionOf } from '../../lib/phone.js';
import { recordAudit } from '../audit/audit.service.js';

const NOT_E164 = (col: string) =>
  `${col} IS NOT NULL AND btrim(${col}) <> '' AND ${col} !~ '^\\+[1-9][0-9]{6,14}$'`;

interface Target {
  table: 'people' | 'guardians' | 'emergency_contacts';
  targetType: string;
  select: string;
}

const TARGETS: Target[] = [
  {
    table: 'people',
    targetType: 'person',
    select: `SELECT t.id, t.phone, e.location_country AS country, e.id AS event_id, e.series_id
               FROM people t
               LEFT JOIN LATERAL (SELECT r.event_id FROM registrations r WHERE r.person_id = t.id ORDER BY r.id LIMIT 1) r ON true
               LEFT JOIN events e ON e.id = r.event_id
              WHERE ${NOT_E164('t.phone')} FOR UPDATE OF t`,
  },
  {
    table: 'guardians',
    targetType: 'guardian',
    select: `SELECT t.id, t.phone, e.location_country AS country, e.id AS event_id, e.series_id
               FROM guardians t JOIN registrations r ON r.id = t.registration_id JOIN events e ON e.id = r.event_id
              WHERE ${NOT_E164('t.phone')} FOR UPDATE OF t`,
  },
  {
    table: 'emergency_contacts',
    targetType: 'emergency_contact',
    select: `SELECT t.id, t.phone, e.location_country AS country, e.id AS event_id, e.series_id
               FROM emergency_contacts t JOIN registrations r ON r.id = t.registration_id JOIN events e ON e.id = r.event_id
              WHERE ${NOT_E164('t.phone')} FOR UPDATE OF t`,
  },
];

async function normaliseTable(tx: Tx, target: Target): Promise<number> {
  const rows = await tx.execute<{
    id: number;
    phone: string;
    country: string | null;
    event_id: number | null;
    series_id: string | null;
  }>(sql.raw(target.select));
  let changed = 0;
  for (const row of rows.rows) {
    const e164 = normalisePhone(row.phone, regionOf(row.country));
    if (e164 === null || e164 === row.phone) continue;
    await tx.execute(sql`UPDATE ${sql.identifier(target.table)} SET phone = ${e164} WHERE id = ${row.id}`);
    await recordAudit(tx, {
      action: 'phones.normalise',
      actorUserId: null,
      via: 'job',
      eventId: row.event_id === null ? null : Number(row.event_id),
      seriesId: row.series_id,
      targetType: target.targetType,
      targetId: Number(row.id),
      metadata: { field: 'phone', original: row.phone, phone: e164 },
    });
    changed += 1;
  }
  return changed;
}

/** Rewrites every stored phone that is not yet E.164 (see the file comment); returns how many changed. */
export async function normaliseStoredPhones(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    let changed = 0;
    for (const target of TARGETS) changed += await normaliseTable(tx, target);
    return changed;
  });
}
