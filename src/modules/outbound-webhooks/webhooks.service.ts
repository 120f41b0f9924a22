/**
 * Outbound webhook endpoints of an event or a series (docs/webhooks.md "Outbound"): create (the
 * signing secret `whsec_…` is answered once and stored only sealed), list, read, update, delete and
 * rotate the secret (the previous one keeps signing beside the new one for 24 hours). Every write
 * is audited (`webhooks.*`, metadata: id, the URL's host, changed field names; never the secret or
 * the full URL, whose query may carry a token). Targets are checked by targets.ts: a refused URL is
 * a plain 422 and nothing is contacted.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { UserAccess } from '../../access/authorize.js';
import type { Ctx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { isEventType, WEBHOOK_EVENT_TYPES } from './event-types.js';
import { checkUrl, resolveTarget, TargetRefused } from './targets.js';
import { countWebhooks, insertWebhook, lockWebhook, type Owner, selectWebhooks } from './webhooks.repo.js';
import type { CreateWebhookInput, UpdateWebhookInput, WebhookJson } from './webhooks.schemas.js';

export type WebhookCtx = Ctx<UserAccess>;
export const WEBHOOK_NOT_FOUND = 'Webhook not found';
/** Most endpoints one event or series may have. */
export const WEBHOOKS_MAX = 20;
/** How long a rotated-out secret keeps signing (ms). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A new signing secret: `whsec_` + 32 random bytes in base64 (the Standard Webhooks form). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The URL, checked for form and (DNS) target; 422 with the reason when refused. */
async function checkedUrl(ctx: WebhookCtx, raw: string): Promise<string> {
  try {
    const url = checkUrl(raw.trim(), ctx.config.outboundWebhooks);
    await resolveTarget(url, ctx.config.outboundWebhooks);
    return url.href;
  } catch (error) {
    if (error instanceof TargetRefused) throw unprocessable(error.message);
    throw error;
  }
}

function checkedTypes(types: string[]): string[] {
  const unknown = types.find((t) => !isEventType(t));
  if (unknown !== undefined)
    throw unprocessable(
      `Unknown event type: ${unknown.slice(0, 60)} (known: ${WEBHOOK_EVENT_TYPES.join(', ')})`,
    );
  return [...new Set(types)];
}

function audit(ctx: WebhookCtx, owner: Owner, action: string, id: number, metadata: Record<string, unknown>) {
  return (tx: Parameters<typeof recordAudit>[0]) =>
    recordAudit(tx, {
      action,
      principal: ctx.access.principal,
      eventId: owner.kind === 'event' ? owner.eventId : null,
      seriesId: owner.seriesId,
      targetType: 'webhook',
      targetId: id,
      metadata: { webhook_id: id, ...metadata },
    });
}

const hostOf = (url: string) => URL.parse(url)?.host ?? null;

export async function createWebhook(
  ctx: WebhookCtx,
  owner: Owner,
  input: CreateWebhookInput,
): Promise<{ webhook: WebhookJson & { secret: string } }> {
  const eventTypes = checkedTypes(input.event_types);
  const description = (input.description ?? '').trim();
  const url = await checkedUrl(ctx, input.url);
  const secret = newSecret();
  return ctx.db.transaction(async (tx) => {
    if ((await countWebhooks(tx, owner)) >= WEBHOOKS_MAX)
      throw unprocessable(`At most ${WEBHOOKS_MAX} webhooks per ${owner.kind}`);
    const id = await insertWebhook(tx, owner, {
      url,
      description,
      eventTypes,
      secretSealed: ctx.sealer.seal(secret),
      userId: ctx.access.principal.user.id,
    });
    await audit(ctx, owner, 'webhooks.create', id, { host: hostOf(url), event_types: eventTypes })(tx);
    const [webhook] = await selectWebhooks(tx, owner, id);
    return { webhook: { ...webhook!, secret } };
  });
}

export async function listWebhooks(ctx: WebhookCtx, owner: Owner): Promise<{ webhooks: WebhookJson[] }> {
  return { webhooks: await selectWebhooks(ctx.db, owner) };
}

/** A path `{id}`: digits only (else 404 like an unknown id). */
export function webhookId(raw: string): number {
  if (!/^[0-9]{1,9}$/.test(raw)) throw notFound(WEBHOOK_NOT_FOUND);
  return Number(raw);
}

export async function getWebhook(
  ctx: WebhookCtx,
  owner: Owner,
  id: number,
): Promise<{ webhook: WebhookJson }> {
  const [webhook] = await selectWebhooks(ctx.db, owner, id);
  if (!webhook) throw notFound(WEBHOOK_NOT_FOUND);
  return { webhook };
}

export async function updateWebhook(
  ctx: WebhookCtx,
  owner: Owner,
  id: number,
  input: UpdateWebhookInput,
): Promise<{ webhook: WebhookJson }> {
  const eventTypes = input.event_types === undefined ? undefined : checkedTypes(input.event_types);
  const url = input.url === undefined ? undefined : await checkedUrl(ctx, input.url);
  return ctx.db.transaction(async (tx) => {
    const row = await lockWebhook(tx, owner, id);
    if (!row) throw notFound(WEBHOOK_NOT_FOUND);
    const sets = [sql`updated_at = now()`];
    if (url !== undefined) sets.push(sql`url = ${url}`);
    if (input.description !== undefined) sets.push(sql`description = ${input.description.trim()}`);
    if (eventTypes !== undefined)
      sets.push(
        sql`event_types = ARRAY[${sql.join(
          eventTypes.map((t) => sql`${t}`),
          sql`, `,
        )}]::text[]`,
      );
    if (input.enabled !== undefined) {
      sets.push(sql`enabled = ${input.enabled}`);
      // Switched back on: a fresh start (the failure run that switched it off is over).
      if (input.enabled && !row.enabled)
        sets.push(sql`failing_since = NULL, disabled_at = NULL, disabled_reason = NULL`);
      if (!input.enabled && row.enabled) sets.push(sql`disabled_at = now()`);
    }
    await tx.execute(sql`UPDATE webhook_endpoints SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
    await audit(ctx, owner, 'webhooks.update', id, {
      fields: Object.keys(input).sort(),
      host: hostOf(url ?? row.url),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    })(tx);
    const [webhook] = await selectWebhooks(tx, owner, id);
    return { webhook: webhook! };
  });
}

export async function deleteWebhook(ctx: WebhookCtx, owner: Owner, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockWebhook(tx, owner, id);
    if (!row) throw notFound(WEBHOOK_NOT_FOUND);
    await tx.execute(sql`DELETE FROM webhook_endpoints WHERE id = ${id}`);
    await audit(ctx, owner, 'webhooks.delete', id, { host: hostOf(row.url) })(tx);
  });
}

/** A new secret, answered once; the previous one signs beside it for 24 hours (two signatures). */
export async function rotateSecret(
  ctx: WebhookCtx,
  owner: Owner,
  id: number,
): Promise<{ webhook: WebhookJson & { secret: string } }> {
  const secret = newSecret();
  return ctx.db.transaction(async (tx) => {
    const row = await lockWebhook(tx, owner, id);
    if (!row) throw notFound(WEBHOOK_NOT_FOUND);
    const until = new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString();
    await tx.execute(sql`UPDATE webhook_endpoints
       SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = ${until}::timestamptz,
           secret_sealed = ${ctx.sealer.seal(secret)}, updated_at = now()
     WHERE id = ${id}`);
    await audit(ctx, owner, 'webhooks.rotate_secret', id, { previous_valid_until: until })(tx);
    const [webhook] = await selectWebhooks(tx, owner, id);
    return { webhook: { ...webhook!, secret } };
  });
}
