/**
 * Durable job definitions (pg-boss queues): name → payload type and retry policy. Handlers live in
 * jobs/runner.ts. Policies: exponential backoff retries, then the `dead-letter` queue; a job active
 * longer than `expireInSeconds` is treated as stuck by pg-boss maintenance and retried.
 */
export interface JobPayloads {
  /** Send one email recorded in email_log; `sealed` holds recipient, template and variables (lib/sealed.ts). */
  'email-send': { email_log_id: number; sealed: string };
  /** Resolve an event's staff devices and fan out one `push-deliver` job per Expo request (modules/push). */
  'push-send': {
    event_id: number;
    kind: string;
    title: string;
    body: string;
    data: Record<string, unknown>;
    exclude_user_ids: number[];
  };
  /** One request to Expo's push service: at most 100 messages (modules/push). */
  'push-deliver': {
    tokens: { id: number; token: string }[];
    title: string;
    body: string;
    data: Record<string, unknown>;
  };
  /** Deliver a chat blast's pending recipients (modules/chat-blasts/delivery.service.ts); idempotent. */
  'chat-blast-deliver': { blast_id: number };
  /**
   * Check the Expo receipts of sent push messages (modules/push/push-receipts.ts), some minutes
   * after sending; `attempt` counts checks (receipts not ready yet are checked again, twice at most).
   */
  'push-receipts': {
    receipts: { ticket_id: string; push_token_id: number; token: string }[];
    attempt: number;
  };
  /** Inbound receivers (docs/decisions.md "Messaging"): apply one stored provider event (webhook_events row). */
  'webhook-process': { webhook_event_id: number };
  /** Create the e-signature provider's signing request for one consent (modules/registration). */
  'esign-request': { consent_id: number };
  /** Send a scheduled announcement when its time comes (modules/announcements); idempotent. */
  'announcement-send': { announcement_id: number };
  /** Daily: delete rows past MUSTER_RETENTION_DAYS (modules/retention); scheduled by the worker. */
  'retention-prune': Record<string, never>;
  /** Hourly: guardian re-sends and registration-closing reminders (modules/email/reminders.service.ts). */
  'email-reminders': Record<string, never>;
}

export type JobName = keyof JobPayloads;

export interface QueuePolicy {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  deadLetter?: string;
}

export const DEAD_LETTER_QUEUE = 'dead-letter';

export const QUEUES: Record<JobName, QueuePolicy> = {
  'email-send': {
    retryLimit: 6,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  'push-send': {
    retryLimit: 5,
    retryDelay: 2,
    retryBackoff: true,
    expireInSeconds: 60,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  'push-deliver': {
    retryLimit: 5,
    retryDelay: 2,
    retryBackoff: true,
    expireInSeconds: 60,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  'push-receipts': {
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  // A blast job runs until every recipient is sent or failed (minutes for thousands); duplicates are
  // harmless (recipients are claimed with SKIP LOCKED and a lease), so a long expiry is safe.
  'chat-blast-deliver': {
    retryLimit: 10,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 3600,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  // Inbound receivers: the work of one provider event; idempotent (webhook_events.processed_at).
  'webhook-process': {
    retryLimit: 8,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 60,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  // Registration: invitation and guardian emails, e-signature requests.
  'esign-request': {
    retryLimit: 6,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 60,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  // Announcements: queues one email per recipient in one transaction; a second run finds it sent.
  'announcement-send': {
    retryLimit: 6,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 900,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  // Idempotent batched deletes; a missed day is caught up by the next run.
  'retention-prune': {
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  // Idempotent (one email_reminders row per reminder); a missed hour is caught up by the next run.
  'email-reminders': {
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    deadLetter: DEAD_LETTER_QUEUE,
  },
};
