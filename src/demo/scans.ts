/** Demo check-ins: scans by the ops user in the check-in and hotel contexts, and NFC badges. */
import type { Faker } from '@faker-js/faker';
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { scanContexts, scans } from '../db/schema/index.js';
import { storeBadge } from '../modules/checkin/nfc.service.js';

/** About half of the complete registrations are checked in by the ops user; a third of those have a badge. */
export async function seedDemoScans(
  tx: Tx,
  f: Faker,
  o: {
    eventId: number;
    ref: number;
    scannerUserId: number;
    registrationIds: number[];
    hotelContextId: number;
  },
): Promise<void> {
  const [checkIn] = await tx
    .select({ id: scanContexts.id })
    .from(scanContexts)
    .where(sql`${scanContexts.eventId} = ${o.eventId} AND ${scanContexts.checksIn}`);
  const rows: (typeof scans.$inferInsert)[] = [];
  for (const rid of o.registrationIds) {
    if (!f.datatype.boolean({ probability: 0.5 })) continue;
    const at = o.ref - f.number.int({ min: 5, max: 240 }) * 60_000;
    const source = f.helpers.arrayElement(['qr', 'qr', 'nfc', 'manual'] as const);
    const base = { eventId: o.eventId, registrationId: rid, scannerUserId: o.scannerUserId, source };
    rows.push({
      ...base,
      scanContextId: checkIn!.id,
      outcome: 'scanned',
      scannedAt: new Date(at).toISOString(),
      clientScanId: `demo-${rid}-1`,
    });
    if (f.datatype.boolean({ probability: 0.1 })) {
      const again = new Date(at + f.number.int({ min: 1, max: 30 }) * 60_000).toISOString();
      rows.push({
        ...base,
        scanContextId: checkIn!.id,
        outcome: 'already_scanned',
        scannedAt: again,
        clientScanId: `demo-${rid}-2`,
      });
    }
    if (f.datatype.boolean({ probability: 0.5 })) {
      const later = new Date(at + f.number.int({ min: 10, max: 60 }) * 60_000).toISOString();
      rows.push({
        ...base,
        scanContextId: o.hotelContextId,
        outcome: 'scanned',
        scannedAt: later,
        clientScanId: `demo-${rid}-3`,
      });
    }
    if (f.datatype.boolean({ probability: 0.35 })) {
      const token = f.string.hexadecimal({ length: 16, casing: 'lower', prefix: '' });
      await storeBadge(tx, rid, token, { at: new Date(at).toISOString() });
    }
  }
  if (rows.length) await tx.insert(scans).values(rows);
}
