/**
 * The running server's control socket (embedded database only): `<data dir>/control.sock`, mode
 * 0600, so only the account that owns the data folder can use it. `muster backup` asks the running
 * process for a backup through it, since the folder is locked while the server runs. Protocol: one
 * JSON line each way: `{"op":"backup","out":"/abs/file"}` → `{"ok":true,"result":…}` or
 * `{"ok":false,"error":"…"}`. Backups through it run one at a time.
 */
import { chmod, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { type BackupDeps, type BackupResult, createBackup } from './backup.service.js';

export const controlSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'control.sock');

/** Listens on the data folder's control socket; resolves with its close function. */
export async function startControlSocket(deps: BackupDeps & { log: Logger }): Promise<() => Promise<void>> {
  if (deps.database.kind !== 'embedded' || deps.config.dataDir === 'memory://') return async () => {};
  const socket = controlSocketPath(deps.config.dataDir);
  if (socket.length > 100) {
    deps.log.warn(
      { socket },
      'data folder path too long for a control socket: `muster backup` needs the server stopped',
    );
    return async () => {};
  }
  await rm(socket, { force: true }); // left by a process that was killed
  let queue: Promise<unknown> = Promise.resolve();
  const server = net.createServer((conn) => {
    let input = '';
    conn.setEncoding('utf8');
    conn.on('data', (chunk: string) => {
      input += chunk;
      const end = input.indexOf('\n');
      if (end < 0) {
        if (input.length > 8192) conn.destroy();
        return;
      }
      const reply = (body: unknown) => conn.end(`${JSON.stringify(body)}\n`);
      let request: { op?: unknown; out?: unknown };
      try {
        request = JSON.parse(input.slice(0, end)) as typeof request;
      } catch {
        reply({ ok: false, error: 'Malformed request' });
        return;
      }
      if (request.op !== 'backup' || typeof request.out !== 'string' || !path.isAbsolute(request.out)) {
        reply({ ok: false, error: 'Unknown request' });
        return;
      }
      const out = request.out;
      const run = queue.then(() => createBackup(deps, out));
      queue = run.catch(() => {});
      run.then(
        (result) => {
          deps.log.info(
            { file: result.file, bytes: result.bytes },
            'backup written (requested by muster backup)',
          );
          reply({ ok: true, result });
        },
        (error: unknown) =>
          reply({ ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
    });
    conn.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  await chmod(socket, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      void rm(socket, { force: true });
    });
}

/**
 * Asks the server running on `dataDir` for a backup to `out`. Resolves null when no server listens
 * there (no socket, or a stale one); rejects with the server's error message otherwise.
 */
export function requestBackup(dataDir: string, out: string): Promise<BackupResult | null> {
  return new Promise((resolve, reject) => {
    const conn = net.connect(controlSocketPath(dataDir));
    let input = '';
    conn.setEncoding('utf8');
    conn.on('connect', () => conn.write(`${JSON.stringify({ op: 'backup', out })}\n`));
    conn.on('data', (chunk: string) => {
      input += chunk;
    });
    conn.on('end', () => {
      try {
        const answer = JSON.parse(input) as { ok: boolean; result?: BackupResult; error?: string };
        if (answer.ok && answer.result) resolve(answer.result);
        else reject(new Error(answer.error ?? 'The server did not take the backup'));
      } catch {
        reject(new Error('The server closed the control socket without an answer'));
      }
    });
    conn.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
  });
}
