/**
 * Durable job definitions (pg-boss queues): name → payload type and retry policy. Handlers live in
 * jobs/runner.ts. Policies: exponential backoff retries, then the `dead-letter` queue; a job active
 * longer than `expireInSeconds` is treated as stuck by pg-boss maintenance and retried.
 */
export interface JobPayloads {
  /** Send one email recorded in email_log; `sealed` holds recipient, template and variables (lib/sealed.ts). */
  'email-send': { email_log_id: number; sealed: string };
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
};
