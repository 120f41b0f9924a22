/** The worker: registers every job handler. Started in-process by `muster serve` (MUSTER_WORKER=true). */
import type { Deps } from '../deps.js';
import { sendAnnouncementJob } from '../modules/announcements/dispatch.service.js';
import { resumeChatBlasts } from '../modules/chat-blasts/delivery.finish.js';
import { deliverBlast } from '../modules/chat-blasts/delivery.service.js';
import { sendQueuedEmail } from '../modules/email/email.service.js';
import { sendReminders } from '../modules/email/reminders.service.js';
import { startWebhookDispatcher } from '../modules/outbound-webhooks/dispatcher.js';
import { deliverPushChunk, fanOutStaffPush } from '../modules/push/push.service.js';
import { checkPushReceipts } from '../modules/push/push-receipts.js';
import { requestEsignSignature } from '../modules/registration/lifecycle/consents.service.js';
import { applyDuePolicies } from '../modules/retention/policy.service.js';
import { pruneRetention } from '../modules/retention/retention.service.js';
import { trackFlights } from '../modules/travel/tracking.service.js';
import { processWebhookEvent } from '../webhooks/process.js';

/**
 * The email handler alone: what a one-shot command that queued emails (`muster import --invite`)
 * needs to deliver them, without polling every other queue on the database's connection.
 */
export async function startEmailWorker(
  deps: Deps,
  opts: { pollingIntervalSeconds?: number } = {},
): Promise<void> {
  // Emails: pg-boss waits a polling interval between fetches, so one job per fetch capped delivery
  // at 1 email/s (measured). A batch per fetch, 5 at a time; a retried batch skips emails already
  // sent (sendQueuedEmail acts only on `queued` rows).
  await deps.jobs.work('email-send', (data, job) => sendQueuedEmail(deps, data, job), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
    batchSize: EMAIL_BATCH,
    concurrency: EMAIL_CONCURRENCY,
  });
}

/** Every job handler (`muster serve` with MUSTER_WORKER=true, `muster worker`). */
export async function startWorker(deps: Deps, opts: { pollingIntervalSeconds?: number } = {}): Promise<void> {
  await startEmailWorker(deps, opts);
  await deps.jobs.work('push-send', (data) => fanOutStaffPush(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  await deps.jobs.work('push-deliver', (data) => deliverPushChunk(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  await deps.jobs.work('push-receipts', (data) => checkPushReceipts(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  // Chat blasts: deliver, and resume blasts a crashed worker left unfinished.
  // Two pollers: a long blast does not hold up another event's blast (each runs to completion).
  for (let i = 0; i < 2; i++) {
    await deps.jobs.work('chat-blast-deliver', (data) => deliverBlast(deps, data), {
      pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
    });
  }
  await resumeChatBlasts(deps);
  // Inbound receivers (docs/decisions.md "Messaging").
  // Fetched 25 at a time: pg-boss waits a polling interval between fetches, and providers send
  // bursts (one delivery event per email). A failed batch is retried whole; processing is idempotent.
  await deps.jobs.work('webhook-process', (data) => processWebhookEvent(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
    batchSize: 25,
  });
  // Registration: e-signature requests.
  await deps.jobs.work('esign-request', (data) => requestEsignSignature(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  // Scheduled announcements (organiser operations): queue their emails when due.
  await deps.jobs.work('announcement-send', (data) => sendAnnouncementJob(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  // Retention: once a day (pg-boss keeps one schedule across all workers).
  await deps.jobs.work(
    'retention-prune',
    async () => {
      await pruneRetention(deps);
      await applyDuePolicies(deps.db); // per-event shredding (docs/privacy.md "Retention and shredding")
    },
    { pollingIntervalSeconds: 30 },
  );
  await deps.jobs.schedule('retention-prune', RETENTION_CRON);
  // Reminder emails: hourly (docs/email.md "Reminders").
  await deps.jobs.work(
    'email-reminders',
    async () => {
      await sendReminders(deps);
    },
    { pollingIntervalSeconds: 30 },
  );
  await deps.jobs.schedule('email-reminders', REMINDERS_CRON);
  // Live flight tracking (docs/travel.md "Live tracking"); nothing to do without a provider.
  if (deps.config.flights.provider !== 'none') {
    await deps.jobs.work(
      'flight-track',
      async () => {
        await trackFlights(deps);
      },
      { pollingIntervalSeconds: 30 },
    );
    await deps.jobs.schedule('flight-track', `*/${deps.config.flights.pollMinutes} * * * *`);
  }
  // Outbound webhooks: the dispatcher claims due deliveries until the job queue stops.
  startWebhookDispatcher(deps);
}

/** Emails fetched per poll, and sent at a time over the pooled SMTP connections (README "Email and jobs"). */
export const EMAIL_BATCH = 25;
export const EMAIL_CONCURRENCY = 5;

/** Daily at 03:17 UTC (quiet hours; off the hour so it does not meet other cron work). */
export const RETENTION_CRON = '17 3 * * *';

/** Hourly at minute 41 (off the hour, away from the retention run). */
export const REMINDERS_CRON = '41 * * * *';
