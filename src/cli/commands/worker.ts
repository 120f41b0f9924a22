/**
 * `muster worker`: the job worker alone (email, push, chat blast delivery), without the HTTP API,
 * until SIGINT or SIGTERM. Run as many as needed against PostgreSQL (jobs and chat blast recipients
 * are claimed safely across processes); `muster serve` also runs one in-process unless
 * MUSTER_WORKER=false. With the embedded database only one process may open it: use `muster serve`.
 * On PostgreSQL it refuses to start without MUSTER_SECRET_KEY (the key `serve` seals with).
 * With MUSTER_WORKER_NICE it lowers its own CPU priority first (lib/worker-nice.ts).
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { requireSharedKey } from '../../lib/sealed.js';
import { lowerOwnPriority } from '../../lib/worker-nice.js';
import { emit, fail } from '../runtime.js';
import { stopOnSignals } from '../stop.js';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the job worker (email, push notifications, chat blasts) without the API')
    .option('--json', 'print one JSON object {worker:"running", pid} once started')
    .action(async (o: { json?: boolean }) => {
      const json = Boolean(o.json);
      try {
        const config = loadConfig();
        requireSharedKey(config);
        // Before the database and the job handlers start: their threads inherit the nice value.
        lowerOwnPriority(config.workerNice);
        const { createDeps } = await import('../../server.js');
        // Stopping is wired before the job handlers start: a SIGTERM that arrives while the worker
        // starts (it may already hold a job) still releases its claims instead of killing it.
        const starting = createDeps(config, { worker: true });
        stopOnSignals(async () => (await starting).close(), { quiet: true });
        await starting;
        emit(json, {
          json: { worker: 'running', pid: process.pid },
          text: [`Muster worker running (pid ${process.pid}). Press Ctrl+C to stop.`],
        });
      } catch (error) {
        fail(json, error);
      }
    });
}
