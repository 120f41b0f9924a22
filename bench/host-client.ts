/** Parent side of the bench host: forks bench/host.ts and turns HostApi calls into IPC messages. */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HostApi, HostMethod, HostResponse } from './host-protocol.js';

type Arg<M extends HostMethod> = Parameters<HostApi[M]> extends [infer A] ? A : undefined;
type Ret<M extends HostMethod> = Awaited<ReturnType<HostApi[M]>>;

export class HostClient {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  private exited = false;

  constructor() {
    this.child = fork(fileURLToPath(new URL('./host.ts', import.meta.url)), [], {
      // BENCH_CPU_PROF=<dir>: write a V8 CPU profile of the server process there (bench/README.md).
      execArgv: [
        '--import',
        'tsx',
        // bench/memory.ts: a full collection before and after a measured window.
        '--expose-gc',
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
        // BENCH_HOST_FLAGS="--single-threaded-gc …": Node/V8 flags for the server process only.
        ...(process.env.BENCH_HOST_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (raw) => {
      const msg = raw as HostResponse;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new Error(`bench host: ${msg.error}`));
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      for (const p of this.pending.values()) p.reject(new Error(`bench host exited (${signal ?? code})`));
      this.pending.clear();
    });
  }

  call<M extends HostMethod>(method: M, ...arg: Arg<M> extends undefined ? [] : [Arg<M>]): Promise<Ret<M>> {
    if (this.exited) return Promise.reject(new Error('bench host has exited'));
    const id = this.nextId++;
    return new Promise<Ret<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, method, arg: arg[0] ?? null });
    });
  }

  /** Closes the database and servers, then ends the child process. */
  async shutdown(reset = false): Promise<void> {
    if (this.exited) return;
    try {
      await this.call('close', { reset });
    } finally {
      if (!this.exited) {
        const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
        this.child.disconnect();
        await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (!this.exited) this.child.kill('SIGKILL');
      }
    }
  }
}
