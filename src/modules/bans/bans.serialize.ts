/** Ban rows → the spec's Ban record (spec "Ban"; docs/decisions.md "Series, events and bans"). */
import type { Static } from 'typebox';
import { isoTimestamp } from '../../lib/time.js';
import type { BanRecord } from './bans.repo.js';
import type { Ban, BanStatus } from './bans.schemas.js';

/**
 * Revoked wins over everything; otherwise no expiry is Indefinite, and a dated ban is Active until
 * its expiry passes (the repo computes `active` with the database clock).
 */
export function banStatus(r: Pick<BanRecord, 'revokedAt' | 'expiresAt' | 'active'>): BanStatus {
  if (r.revokedAt !== null) return 'Revoked';
  if (r.expiresAt === null) return 'Indefinite';
  return r.active ? 'Active' : 'Expired';
}

export function serializeBan(r: BanRecord): Static<typeof Ban> {
  return {
    id: r.id,
    emails: r.emails,
    reason: r.reason,
    status: banStatus(r),
    active: r.active,
    expires_at: isoTimestamp(r.expiresAt),
    revoked_at: isoTimestamp(r.revokedAt),
    created_at: isoTimestamp(r.createdAt)!,
    created_by: r.creatorUuid === null ? null : { id: r.creatorUuid, name: r.creatorName ?? '' },
  };
}
