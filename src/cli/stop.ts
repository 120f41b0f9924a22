/**
 * Stopping a long-running command (`serve`, `worker`) on SIGINT or SIGTERM: `close()` drains
 * (requests already received are answered, job handlers finish or release their claims), then the
 * process exits 0. A second signal, or a drain longer than STOP_DEADLINE_MS, exits 1 at once.
 */
import { fail } from './runtime.js';

/** The longest a graceful stop may take before the process exits anyway (ms). */
export const STOP_DEADLINE_MS = 10_000;

export function stopOnSignals(close: () => Promise<void>, opts: { quiet: boolean }): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // a second signal: stop now
    stopping = true;
    if (!opts.quiet) process.stderr.write(`${signal} received, shutting down...\n`);
    setTimeout(() => {
      process.stderr.write(`Error: still stopping after ${STOP_DEADLINE_MS / 1000} s; exiting\n`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        fail(false, error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
