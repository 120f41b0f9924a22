/**
 * MUSTER_WORKER_NICE: `muster worker` lowers its own CPU priority at start, so that on a shared
 * host the web processes' requests (check-in at the door) win the CPU over deliveries, which can
 * wait a few milliseconds. Only ever raises the nice value (lowering it needs privileges).
 */
import { readdirSync } from 'node:fs';
import os from 'node:os';

/**
 * Sets nice `n` on the calling thread and, on Linux, on every thread the process already has
 * (`setpriority` on Linux acts per thread; threads created later inherit their creator's value).
 * Returns the nice value the main thread ends at.
 */
export function lowerOwnPriority(n: number): number {
  if (n <= 0) return os.getPriority(0);
  if (os.getPriority(0) < n) os.setPriority(0, n);
  let tasks: string[] = [];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    // Not Linux: the process-wide call above is all there is.
  }
  for (const task of tasks) {
    const tid = Number(task);
    try {
      if (os.getPriority(tid) < n) os.setPriority(tid, n);
    } catch {
      // The thread ended between the listing and the call.
    }
  }
  return os.getPriority(0);
}
