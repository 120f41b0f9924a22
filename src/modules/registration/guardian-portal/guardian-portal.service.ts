/**
 * Guardian portal (docs/decisions.md "Guardian portal"): the emailed link's token is the credential. A token is stored only
 * as its SHA-256 digest (`guardians.invite_token_digest`, 7 days, `invite_expires_at`).
 *
 * Check order: malformed or unknown token → 404 `Guardian link not found`; expired → 410
 * `This guardian link has expired; ask the participant or the event team for a new one`; then the
 * body (422 `{error, problems}` naming each field; validation and the write are the participant-record
 * write model's validatePortalPatch and writeGuardianPatch); then the state: the child's registration `withdrawn` or `rejected`
 * → 409 `This registration is <status>`. Reading never changes anything. The first PATCH (or the
 * completion) marks the guardian `accepted`; completion marks it `completed` and re-runs the
 * registration's completion check (docs/decisions.md "Registration lifecycle"). Writes are audited (`guardians.portal.update`,
 * `guardians.portal.complete`, field names only) and bump the registration's `updated_at`.
 */
import { sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { LINK_EXPIRED, LINK_NOT_FOUND } from '../../../access/guardian-link.js';
import type { Tx } from '../../../db/client.js';
import { one } from '../../../db/rows.js';
import type { GuardianCtx } from '../../../deps.js';
import { ApiError, conflict, notFound, unprocessable } from '../../../lib/errors.js';
import { propOf } from '../../../lib/narrow.js';
import { recordAudit } from '../../audit/audit.service.js';
import { eventRegion } from '../../events/event-region.js';
import { assertNoNul, validatePortalPatch } from '../../participants/record/validate.js';
import { writeGuardianPatch } from '../../participants/record/write.js';
import { CONSENT_NOT_FOUND, recordTypedSignature } from '../lifecycle/consents.service.js';
import { recheckCompletion } from '../lifecycle/lifecycle.js';
import { type GuardianLink, guardianById, portalView } from './guardian-portal.repo.js';
import {
  PERMISSION_KEYS,
  PERMISSION_LABELS,
  PERMISSION_VALUES,
  type PortalBody,
  REQUIRED_PERMISSIONS,
} from './guardian-portal.schemas.js';

export { LINK_EXPIRED, LINK_NOT_FOUND } from '../../../access/guardian-link.js';

/**
 * The guardian the gate resolved from the link (access/guardian-link.ts: 404 unknown, 410 expired),
 * read again by id — in a write's transaction with its row and the registration's locked.
 */
async function linkOf(db: Tx, ctx: GuardianCtx, lock = false): Promise<GuardianLink> {
  const link = await guardianById(db, ctx.access.principal.guardianId, lock);
  if (!link) throw notFound(LINK_NOT_FOUND);
  if (link.expired) throw new ApiError(410, LINK_EXPIRED);
  return link;
}

/** The portal view (`PortalBody`); its guardian, child and consents are built as JSON in SQL. */
async function view(db: Tx, guardianId: number): Promise<Static<typeof PortalBody>> {
  const body = (await portalView(db, guardianId)) as Omit<Static<typeof PortalBody>, 'permissions'>;
  // The guardian's row carries each permission's answer under the permission's key.
  const guardian: Record<string, unknown> = body.guardian;
  const permissions = PERMISSION_KEYS.map((key) => ({
    key,
    label: PERMISSION_LABELS[key],
    required: REQUIRED_PERMISSIONS.includes(key),
    options: [...PERMISSION_VALUES],
    value: (guardian[key] as string | null | undefined) ?? null,
  }));
  const { guardian: g, child, consents, expires_at } = body;
  return { guardian: g, child, permissions, consents, expires_at };
}

/** GET /guardian/{token} → `{guardian, child, permissions, consents, expires_at}`. Read-only. */
export async function getPortal(ctx: GuardianCtx) {
  return view(ctx.db, ctx.access.principal.guardianId);
}

function assertActive(link: GuardianLink): void {
  if (link.registrationStatus === 'withdrawn' || link.registrationStatus === 'rejected')
    throw conflict(`This registration is ${link.registrationStatus}`);
}

const ACCEPT = sql`status = CASE WHEN status IN ('pending', 'invited') THEN 'accepted' ELSE status END,
  accepted_at = COALESCE(accepted_at, now())`;

async function audit(tx: Tx, link: GuardianLink, action: string, metadata: Record<string, unknown>) {
  await recordAudit(tx, {
    action,
    eventId: link.eventId,
    seriesId: link.seriesId,
    targetType: 'guardian',
    targetId: link.id,
    via: 'guardian_link',
    metadata: { registration_id: link.registrationId, via: 'guardian_link', ...metadata },
  });
}

/** Sets a registration's authorised pickup adults (creating its safeguarding section if needed). */
async function setPickupAdults(tx: Tx, registrationId: number, value: string | null): Promise<void> {
  await tx.execute(sql`INSERT INTO registration_safeguarding (registration_id, authorized_pickup_adults)
    VALUES (${registrationId}, ${value})
    ON CONFLICT (registration_id) DO UPDATE SET authorized_pickup_adults = EXCLUDED.authorized_pickup_adults`);
}

/**
 * PATCH /guardian/{token}: own details, permissions, own emergency contacts and the child's
 * authorised pickup adults → the portal view.
 */
export async function patchPortal(ctx: GuardianCtx, body: unknown) {
  const region = await eventRegion(ctx.db, ctx.access.principal.eventId);
  const patch = validatePortalPatch(body, region);
  return ctx.db.transaction(async (tx) => {
    const link = await linkOf(tx, ctx, true);
    assertActive(link);
    const { authorized_pickup_adults: pickup, ...own } = patch;
    await writeGuardianPatch(tx, { guardianId: link.id, registrationId: link.registrationId }, own, [ACCEPT]);
    // The child's authorised pickup adults live in the child's safeguarding section.
    if (pickup !== undefined) await setPickupAdults(tx, link.registrationId, pickup?.trim() || null);
    await audit(tx, link, 'guardians.portal.update', { fields: Object.keys(patch) });
    return view(tx, link.id);
  });
}

/**
 * POST /guardian/{token}/complete: the guardian is done. 422 `Answer these permissions before
 * completing: …` while a required permission is unanswered. Idempotent: completing again answers
 * the view and changes nothing.
 */
export async function completePortal(ctx: GuardianCtx) {
  return ctx.db.transaction(async (tx) => {
    const link = await linkOf(tx, ctx, true);
    assertActive(link);
    if (link.status === 'completed') return view(tx, link.id);
    if (link.missingAnswers.length > 0)
      throw unprocessable(`Answer these permissions before completing: ${link.missingAnswers.join(', ')}`);
    await tx.execute(
      sql`UPDATE guardians SET status = 'completed', accepted_at = COALESCE(accepted_at, now()),
            completed_at = now() WHERE id = ${link.id}`,
    );
    await audit(tx, link, 'guardians.portal.complete', {});
    await recheckCompletion(tx, link.registrationId, {
      role: 'guardian',
      actorUserId: link.guardianUserId,
      via: 'guardian_link',
      metadata: { guardian_id: link.id },
    });
    return view(tx, link.id);
  });
}

/**
 * POST /guardian/{token}/consents/{consent_id}/sign `{signature_name}`: a typed signature by the
 * guardian on one of the child's consents (reg-core's recordTypedSignature: pending on a guardian,
 * not yet signed, no e-signature provider; it re-runs the completion check). A consent of another
 * registration, or a malformed id, is 404 `Consent not found`. Answers the portal view.
 */
export async function signPortalConsent(
  ctx: GuardianCtx,
  rawConsentId: string,
  body: unknown,
  ip: string,
  /** The language of the text the guardian read (the portal page's); absent = the event's default. */
  language?: string,
) {
  const consentId = await consentOf(ctx.db, ctx.access.principal.registrationId, rawConsentId);
  const name = propOf(body, 'signature_name');
  const extra =
    body && typeof body === 'object' ? Object.keys(body).filter((k) => k !== 'signature_name') : [];
  if (extra.length > 0)
    throw unprocessable(`body has unknown field${extra.length > 1 ? 's' : ''}: ${extra.join(', ')}`);
  if (typeof name !== 'string') throw unprocessable('signature_name is required');
  assertNoNul({ signature_name: name });
  if (name.length > 200) throw unprocessable('signature_name must be at most 200 characters');
  return ctx.db.transaction(async (tx) => {
    const locked = await linkOf(tx, ctx, true);
    await recordTypedSignature(ctx, tx, {
      consentId,
      signatureName: name,
      ip,
      language,
      signer: 'guardian',
      actor: {
        role: 'guardian',
        actorUserId: locked.guardianUserId,
        via: 'guardian_link',
        metadata: { guardian_id: locked.id, via: 'guardian_link' },
      },
    });
    return view(tx, locked.id);
  });
}

async function consentOf(db: Tx, registrationId: number, raw: string): Promise<number> {
  if (!/^[0-9]{1,9}$/.test(raw)) throw notFound(CONSENT_NOT_FOUND);
  const res = await db.execute<{ id: number }>(
    sql`SELECT id FROM consents WHERE id = ${Number(raw)} AND registration_id = ${registrationId}`,
  );
  if (res.rows.length === 0) throw notFound(CONSENT_NOT_FOUND);
  return Number(one(res.rows).id);
}
