/**
 * How many API requests this process is working on right now, over every app it serves (counted
 * by http/closing.ts from `onRequest` until the response is finished or its socket closes). Read
 * by the webhook dispatcher to give way to the door (outbound-webhooks/give-way.ts). A process
 * that serves no HTTP (`muster worker`) always reads 0.
 */
let inProgress = 0;

export const apiLoad = {
  started(): void {
    inProgress++;
  },
  ended(): void {
    inProgress--;
  },
  /** Requests received and not yet answered (≥ 0). */
  inProgress(): number {
    return inProgress;
  },
};
