/**
 * Embedded database: PGlite in a worker thread, served over the PostgreSQL wire protocol on
 * 127.0.0.1 (random port), guarded by a lock on the data folder so a second process fails at once
 * with a clear message instead of corrupting it.
 *
 * The lock is proper-lockfile's folder `<data>/muster.lock`, refreshed every 5 s and stale after 15 s.
 * Inside it, `owner.json` names the holder ({pid, hostname}): when the holder was killed (SIGKILL,
 * power loss) its lock is taken over at once if that process is gone, instead of after 15 s.
 */
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import lockfile from 'proper-lockfile';
import { errorCode } from '../../lib/narrow.js';

export class DataDirLockedError extends Error {}

const LOCK_OPTIONS = { stale: 15_000, update: 5_000, onCompromised: () => {} };

/** Folders this process holds the lock of (its own pid in owner.json then means "held", not "reused"). */
const heldHere = new Set<string>();

const lockPath = (dir: string) => path.join(dir, 'muster.lock');
const ownerPath = (dir: string) => path.join(lockPath(dir), 'owner.json');

/**
 * True when the lock's recorded holder is a process of this machine that no longer runs (or is
 * this very process's pid, reused after a restart in a container). An unknown holder (no or
 * unreadable owner file, another host) is never taken for gone.
 */
export function lockOwnerIsGone(dir: string): boolean {
  let owner: { pid?: unknown; hostname?: unknown };
  try {
    owner = JSON.parse(readFileSync(ownerPath(dir), 'utf8')) as typeof owner;
  } catch {
    return false;
  }
  if (typeof owner.pid !== 'number' || owner.hostname !== os.hostname()) return false;
  if (owner.pid === process.pid) return !heldHere.has(dir);
  try {
    process.kill(owner.pid, 0); // signal 0: only checks that the process exists
    return false;
  } catch (error) {
    return errorCode(error) === 'ESRCH';
  }
}

/** Takes the data folder's lock (taking over the one of a holder that is gone); returns its release. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const options = { ...LOCK_OPTIONS, lockfilePath: lockPath(dir) };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, options);
  } catch (error) {
    // ENOTEMPTY: proper-lockfile found the lock stale (15 s) but cannot remove it with owner.json inside.
    const stale = errorCode(error) === 'ENOTEMPTY';
    if (!stale && !lockOwnerIsGone(dir)) {
      throw new DataDirLockedError(
        `The data folder ${dir} is in use by another Muster process. Stop it first, or set ` +
          'MUSTER_DATA_DIR to another folder (or DATABASE_URL to use PostgreSQL).',
      );
    }
    // Its holder is gone (or it is stale): empty the lock folder and age it, so proper-lockfile replaces it as stale.
    rmSync(ownerPath(dir), { force: true });
    utimesSync(lockPath(dir), 0, 0);
    release = await lockfile.lock(dir, options).catch(() => {
      throw new DataDirLockedError(`The data folder ${dir} was just taken by another Muster process.`);
    });
  }
  // Writing the file changes the folder's mtime, which proper-lockfile compares with the one it set
  // (a different one means "compromised"): put its mtime back.
  const { atime, mtime } = statSync(lockPath(dir));
  writeFileSync(ownerPath(dir), JSON.stringify({ pid: process.pid, hostname: os.hostname() }));
  utimesSync(lockPath(dir), atime, mtime);
  heldHere.add(dir);
  return async () => {
    heldHere.delete(dir);
    rmSync(ownerPath(dir), { force: true });
    await release();
  };
}

/**
 * A compiled WebAssembly module, opaque here: the ES2023 library this project compiles against
 * (tsconfig.build.json, src only) does not declare the `WebAssembly` namespace.
 */
type CompiledWasm = object;

let compiledPglite: Promise<CompiledWasm> | undefined;

/** Node's WebAssembly global, which the ES2023 library this project compiles against does not declare. */
const wasm: { compile(bytes: Uint8Array): Promise<CompiledWasm> } = Reflect.get(globalThis, 'WebAssembly');

/**
 * PGlite's WebAssembly (9 MB), compiled once per process and handed to every worker (a compiled
 * module is shared between threads, machine code included). A worker that compiled it itself spent
 * ~1 s of CPU on each start (V8 compiles it, then optimises it again in the background), which a
 * process that opens the embedded database many times (the test suite: once per test file) paid
 * every time.
 */
function pgliteWasm(): Promise<CompiledWasm> {
  compiledPglite ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return wasm.compile(await readFile(path.join(path.dirname(entry), 'pglite.wasm')));
  })();
  return compiledPglite;
}

export interface EmbeddedServer {
  host: string;
  port: number;
  /** Writes the whole data folder as an uncompressed tarball to `file` (a `snapshot` to start from). */
  dump(file: string): Promise<void>;
  /** PGlite's memory, in bytes (see `EmbeddedMemory`); undefined if the worker did not answer in 2 s. */
  memory(): Promise<EmbeddedMemory | undefined>;
  stop(): Promise<void>;
}

/**
 * The embedded database's own memory, in bytes: `wasmBytes` is PGlite's WebAssembly memory (it only
 * grows; null if PGlite no longer exposes it), `heapBytes` the worker thread's JavaScript heap in use.
 * Both are part of the process's RSS; neither is in the main thread's `process.memoryUsage()` heap.
 */
export interface EmbeddedMemory {
  wasmBytes: number | null;
  heapBytes: number;
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
    release = await lockDataDir(resolvedDir);
  }
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: {
      dataDir: dataDir === 'memory://' ? dataDir : path.join(resolvedDir, 'pg'),
      maxConnections,
      snapshot: opts.snapshot,
      wasmModule: await pgliteWasm(),
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
    type Reply = { type: string; message?: string } & Partial<EmbeddedMemory>;
    const ask = (message: unknown, reply: string, timeoutMs: number) =>
      new Promise<Reply | undefined>((resolve) => {
        const timer = setTimeout(() => done(undefined), timeoutMs);
        function done(answer: Reply | undefined) {
          clearTimeout(timer);
          worker.off('message', onMessage);
          resolve(answer);
        }
        function onMessage(m: Reply) {
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
      async memory() {
        const answer = await ask({ type: 'memory' }, 'memory', 2_000);
        return answer ? { wasmBytes: answer.wasmBytes ?? null, heapBytes: answer.heapBytes ?? 0 } : undefined;
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
