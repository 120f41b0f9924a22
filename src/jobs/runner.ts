/** The worker: registers every job handler. Started in-process by `muster serve` (MUSTER_WORKER=true). */
import type { Deps } from '../deps.js';
import { resumeChatBlasts } from '../modules/chat-blasts/delivery.finish.js';
import { deliverBlast } from '../modules/chat-blasts/delivery.service.js';
import { sendQueuedEmail } from '../modules/email/email.service.js';
import { deliverPushChunk, fanOutStaffPush } from '../modules/push/push.service.js';
import { requestEsignSignature } from '../modules/registration/consents.service.js';
import { processWebhookEvent } from '../webhooks/process.js';

export async function startWorker(deps: Deps, opts: { pollingIntervalSeconds?: number } = {}): Promise<void> {
  await deps.jobs.work('email-send', (data, job) => sendQueuedEmail(deps, data, job), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  await deps.jobs.work('push-send', (data) => fanOutStaffPush(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  await deps.jobs.work('push-deliver', (data) => deliverPushChunk(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  // Chat blasts (issue 6): deliver, and resume blasts a crashed worker left unfinished.
  await deps.jobs.work('chat-blast-deliver', (data) => deliverBlast(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  await resumeChatBlasts(deps);
  // Inbound receivers (contract §6).
  await deps.jobs.work('webhook-process', (data) => processWebhookEvent(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
  // Registration (issue 4).
  await deps.jobs.work('esign-request', (data) => requestEsignSignature(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
}
