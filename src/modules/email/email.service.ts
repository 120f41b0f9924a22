/**
 * Every email Muster sends: recorded in email_log and queued in the caller's transaction
 * (queueEmail), then sent by the `email-send` job (sendQueuedEmail). The job payload is sealed
 * (lib/sealed.ts) because it may carry a one-time code; the log row holds no secret.
 */
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { emailLog } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { renderTemplate, type TemplateName, type TemplateVars } from './templates.js';

interface SealedEmail<K extends TemplateName = TemplateName> {
  to: string;
  from: string;
  replyTo?: string;
  template: K;
  vars: TemplateVars[K];
}

export interface QueueEmailInput<K extends TemplateName> {
  to: string;
  template: K;
  vars: TemplateVars[K];
  /** Defaults to MAIL_FROM; event emails use the event's support_email. */
  from?: string;
  replyTo?: string;
  eventId?: number | null;
}

/** Why an email to a suppressed address is not sent (docs/decisions.md "Messaging": a hard bounce flags the address). */
export const SUPPRESSED_ERROR = 'Not sent: the address is suppressed after a hard bounce or complaint';

async function isSuppressed(tx: Tx, email: string): Promise<boolean> {
  const res = await tx.execute(
    sql`SELECT 1 FROM email_suppressions WHERE lower(email) = lower(${email}) LIMIT 1`,
  );
  return res.rows.length > 0;
}

/**
 * Inserts the email_log row (status `queued`) and enqueues its delivery, both inside `tx`. Returns
 * the log id. An address on the suppression list gets a `suppressed` row and no job.
 */
export async function queueEmail<K extends TemplateName>(
  deps: Deps,
  tx: Tx,
  input: QueueEmailInput<K>,
): Promise<number> {
  const from = input.from ?? deps.config.mailFrom;
  const rendered = renderTemplate(input.template, input.vars);
  // The subject of a sign-in email contains the code, so the log keeps a redacted subject.
  const subject = input.template === 'sign_in_code' ? 'Your Muster sign-in code' : rendered.subject;
  const suppressed = await isSuppressed(tx, input.to);
  const [row] = await tx
    .insert(emailLog)
    .values({
      toEmail: input.to,
      fromEmail: from,
      template: input.template,
      subject,
      eventId: input.eventId ?? null,
      ...(suppressed ? { status: 'suppressed', error: SUPPRESSED_ERROR } : {}),
    })
    .returning({ id: emailLog.id });
  if (suppressed) return row!.id;
  const sealed: SealedEmail<K> = {
    to: input.to,
    from,
    template: input.template,
    vars: input.vars,
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
  };
  await deps.jobs.enqueue(tx, 'email-send', { email_log_id: row!.id, sealed: deps.sealer.seal(sealed) });
  return row!.id;
}

/**
 * Job handler: idempotent (an email already `sent` is not sent again). On failure the error is
 * recorded and rethrown so the queue retries; the last attempt marks the log row `failed`.
 */
export async function sendQueuedEmail(
  deps: Deps,
  data: { email_log_id: number; sealed: string },
  job: { retryCount: number; retryLimit: number },
): Promise<void> {
  const [row] = await deps.db.select().from(emailLog).where(eq(emailLog.id, data.email_log_id));
  if (row?.status !== 'queued') return;
  const email = deps.sealer.unseal<SealedEmail>(data.sealed);
  // Flagged after it was queued (a hard bounce in between): logged, not sent.
  if (await isSuppressed(deps.db, email.to)) {
    await deps.db
      .update(emailLog)
      .set({ status: 'suppressed', error: SUPPRESSED_ERROR, updatedAt: new Date().toISOString() })
      .where(eq(emailLog.id, row.id));
    return;
  }
  const rendered = renderTemplate(email.template, email.vars as never);
  try {
    const { messageId } = await deps.mailer.send({
      from: email.from,
      to: email.to,
      replyTo: email.replyTo,
      ...rendered,
      // Postmark echoes metadata headers in its webhooks: how webhooks/email.handler.ts finds this row.
      headers: { 'X-PM-Metadata-email_log_id': String(row.id) },
    });
    await deps.db
      .update(emailLog)
      .set({
        status: 'sent',
        sentAt: new Date().toISOString(),
        providerMessageId: messageId,
        error: null,
        updatedAt: new Date().toISOString(),
      })
      .where(eq(emailLog.id, row.id));
  } catch (error) {
    const last = job.retryCount >= job.retryLimit;
    await deps.db
      .update(emailLog)
      .set({
        status: last ? 'failed' : 'queued',
        error: error instanceof Error ? error.message.slice(0, 500) : 'send failed',
        updatedAt: new Date().toISOString(),
      })
      .where(eq(emailLog.id, row.id));
    throw error;
  }
}
