/**
 * Embedded database (issue 2 item 2): PGlite in a worker thread, served over the PostgreSQL wire
 * protocol on 127.0.0.1 (random port), guarded by a lock on the data folder so a second process
 * fails at once with a clear message instead of corrupting it.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import lockfile from 'proper-lockfile';

export class DataDirLockedError extends Error {}

export interface EmbeddedServer {
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** Locks `dataDir` (unless `memory://`), starts the PGlite worker and resolves once it accepts connections. */
export async function startEmbedded(dataDir: string, maxConnections: number): Promise<EmbeddedServer> {
  let release: (() => Promise<void>) | undefined;
  let resolvedDir = dataDir;
  if (dataDir !== 'memory://') {
    resolvedDir = path.resolve(dataDir);
    mkdirSync(resolvedDir, { recursive: true });
    try {
      release = await lockfile.lock(resolvedDir, {
        lockfilePath: path.join(resolvedDir, 'muster.lock'),
        stale: 15_000,
        update: 5_000,
        onCompromised: () => {},
      });
    } catch {
      throw new DataDirLockedError(
        `The data folder ${resolvedDir} is in use by another Muster process. Stop it first, or set ` +
          'MUSTER_DATA_DIR to another folder (or DATABASE_URL to use PostgreSQL).',
      );
    }
  }
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir: dataDir === 'memory://' ? dataDir : path.join(resolvedDir, 'pg'), maxConnections },
  });
  try {
    const ready = await new Promise<{ host: string; port: number }>((resolve, reject) => {
      worker.once('message', (m: { type: string; host: string; port: number; message?: string }) =>
        m.type === 'ready'
          ? resolve(m)
          : reject(new Error(`Embedded database failed to start: ${m.message}`)),
      );
      worker.once('error', reject);
    });
    return {
      ...ready,
      async stop() {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5_000);
          worker.once('message', () => {
            clearTimeout(timer);
            resolve();
          });
          worker.postMessage('stop');
        });
        await worker.terminate();
        await release?.();
      },
    };
  } catch (error) {
    await worker.terminate();
    await release?.();
    throw error;
  }
}
