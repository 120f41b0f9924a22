/** The worker: registers every job handler. Started in-process by `muster serve` (MUSTER_WORKER=true). */
import type { Deps } from '../deps.js';
import { sendQueuedEmail } from '../modules/email/email.service.js';
import { deliverPushChunk, fanOutStaffPush } from '../modules/push/push.service.js';
import { requestEsignSignature } from '../modules/registration/consents.service.js';

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
  // Registration (issue 4).
  await deps.jobs.work('esign-request', (data) => requestEsignSignature(deps, data), {
    pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1,
  });
}
