/** recordAudit(tx, entry): one audit row naming the user and the credential that acted. */
import { actorUserIdOf, type Principal } from '../../access/principal.js';
import type { Tx } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

export type AuditVia = 'cli' | 'guardian_link' | 'webhook' | 'sign_in';

export interface AuditEntry {
  action: string;
  principal?: Principal;
  /** For actions without a credential: the user who acted, or null. */
  actorUserId?: number | null;
  /**
   * For actions without a credential: how the actor was identified, stored as `credential_kind`
   * (default `cli`): a guardian's portal link, a provider webhook, or the sign-in flow itself.
   */
  via?: AuditVia;
  eventId?: number | null;
  seriesId?: string | null;
  targetType?: string;
  targetId?: string | number;
  metadata?: Record<string, unknown>;
}

export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  const p = entry.principal;
  const actor = entry.actorUserId ?? (p ? actorUserIdOf(p) : null);
  await tx.insert(auditLog).values({
    action: entry.action,
    actorUserId: actor,
    credentialKind: p?.kind ?? entry.via ?? (entry.actorUserId !== undefined ? 'cli' : null),
    credentialId: p?.credentialId ?? null,
    credentialName: p?.credentialName ?? null,
    eventId: entry.eventId ?? null,
    seriesId: entry.seriesId ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId === undefined ? null : String(entry.targetId),
    metadata: entry.metadata ?? {},
  });
}
