/**
 * Real `muster` processes for multi-process tests: Node itself running the compiled CLI (so signals
 * reach it directly; test/support/cli-build.ts), stdout collected, the `--json` start line parsed, and stopping with a signal
 * that reports the exit code and how long the stop took.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { ROOT } from '../cli/harness.js';
import { cliArgs } from './cli-build.js';

export interface MusterProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The first line of stdout as JSON (`serve --json`: `{url, docs_url, demo}`), once printed. */
  started(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Sends `signal` and resolves with the exit code and the milliseconds until the process exited. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
  readonly exited: Promise<number | null>;
}

/** Every process started by this test file that may still run. */
const started = new Set<ChildProcess>();

/** SIGKILLs every process this file started that is still running (an afterAll: a failed test leaves none behind). */
export async function killAll(): Promise<void> {
  const waits = [...started].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of started) child.kill('SIGKILL');
  await Promise.all(waits);
}

export function startMuster(args: string[], env: NodeJS.ProcessEnv): MusterProcess {
  const child = spawn(process.execPath, cliArgs(args), {
    cwd: ROOT,
    env: { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  started.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      started.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    async started(timeoutMs = 150_000) {
      const deadline = Date.now() + timeoutMs;
      while (!out.includes('\n')) {
        if (child.exitCode !== null) throw new Error(`muster ${args.join(' ')} exited early: ${err}`);
        if (Date.now() > deadline) throw new Error(`muster ${args.join(' ')} did not start: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return JSON.parse(out.slice(0, out.indexOf('\n'))) as Record<string, unknown>;
    },
    async stop(signal = 'SIGTERM') {
      const t0 = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      return { code, ms: Date.now() - t0 };
    },
  };
}

/** A TCP port that was free a moment ago (for a MUSTER_BASE_URL known before the server starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Polls `url` until it answers `status` (or the timeout passes); returns the last status seen. */
export async function waitForStatus(url: string, status = 200, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = 0;
  while (Date.now() < deadline) {
    try {
      last = (await fetch(url)).status;
      if (last === status) return last;
    } catch {
      last = 0;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

/** The id of the event's "Event check-in" scan context (the demo event has several contexts). */
export async function checkInContext(apiUrl: string, eventId: number, token: string): Promise<number> {
  const res = await fetch(`${apiUrl}/events/${eventId}/scan_contexts`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { scan_contexts } = (await res.json()) as { scan_contexts: { id: number; name: string }[] };
  const found = scan_contexts.find((c) => c.name === 'Event check-in') ?? scan_contexts[0];
  if (!found) throw new Error(`no scan context in event ${eventId}`);
  return found.id;
}
