/**
 * `muster worker`: the job worker alone (email, push, chat blast delivery), without the HTTP API,
 * until SIGINT or SIGTERM. Run as many as needed against PostgreSQL (jobs and chat blast recipients
 * are claimed safely across processes); `muster serve` also runs one in-process unless
 * MUSTER_WORKER=false. With the embedded database only one process may open it: use `muster serve`.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { emit, fail } from '../runtime.js';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the job worker (email, push notifications, chat blasts) without the API')
    .option('--json', 'print one JSON object {worker:"running", pid} once started')
    .action(async (o: { json?: boolean }) => {
      const json = Boolean(o.json);
      try {
        const config = loadConfig();
        const { createDeps } = await import('../../server.js');
        const deps = await createDeps(config, { worker: true });
        emit(json, {
          json: { worker: 'running', pid: process.pid },
          text: [`Muster worker running (pid ${process.pid}). Press Ctrl+C to stop.`],
        });
        let stopping = false;
        const stop = () => {
          if (stopping) process.exit(1);
          stopping = true;
          setTimeout(() => process.exit(1), 15_000).unref();
          deps.close().then(
            () => process.exit(0),
            () => process.exit(1),
          );
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      } catch (error) {
        fail(json, error);
      }
    });
}
