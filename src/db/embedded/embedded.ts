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
  /** Writes the whole data folder as an uncompressed tarball to `file` (a `snapshot` to start from). */
  dump(file: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Locks `dataDir` (unless `memory://`), starts the PGlite worker and resolves once it accepts
 * connections. `snapshot`: a tarball written by `dump()` to start from (for a new, empty
 * `dataDir` only; the test suite starts every in-memory database from one migrated snapshot).
 */
export async function startEmbedded(
  dataDir: string,
  maxConnections: number,
  opts: { snapshot?: string } = {},
): Promise<EmbeddedServer> {
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
    workerData: {
      dataDir: dataDir === 'memory://' ? dataDir : path.join(resolvedDir, 'pg'),
      maxConnections,
      snapshot: opts.snapshot,
    },
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
    /** Posts `message`; resolves with the worker's reply of type `reply`, or undefined after `timeoutMs`. */
    const ask = (message: unknown, reply: string, timeoutMs: number) =>
      new Promise<{ type: string; message?: string } | undefined>((resolve) => {
        const timer = setTimeout(() => done(undefined), timeoutMs);
        function done(answer: { type: string; message?: string } | undefined) {
          clearTimeout(timer);
          worker.off('message', onMessage);
          resolve(answer);
        }
        function onMessage(m: { type: string; message?: string }) {
          if (m.type === reply) done(m);
        }
        worker.on('message', onMessage);
        worker.postMessage(message);
      });
    return {
      ...ready,
      async dump(file) {
        const answer = await ask({ type: 'dump', file }, 'dumped', 120_000);
        if (!answer || answer.message !== undefined) {
          throw new Error(`Embedded database dump failed: ${answer?.message ?? 'timed out'}`);
        }
      },
      async stop() {
        await ask('stop', 'stopped', 5_000);
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
