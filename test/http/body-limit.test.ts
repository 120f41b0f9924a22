/**
 * A request body over the 1 MiB limit gets 413 `{error}` over a real socket, never a connection
 * reset (EPIPE/ECONNRESET), even while the client is still sending: the server reads and discards
 * the rest of the body before it answers and closes (src/http/drain.ts). Sent as a phone on a slow
 * link would: 5 MB in 64 KiB writes, with a Content-Length and chunked, with the mobile app's headers.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/users.service.js';
import { issueMobileToken } from '../../src/modules/credentials/issue.service.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { appHeaders } from '../support/mobile-app.js';

let t: TestApp;
let port = 0;
let token = '';

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  token = await t.deps.db.transaction(async (tx) => {
    const user = await createUser(tx, { email: 'big.body@example.com', name: 'Big Body' });
    return (await issueMobileToken(tx, user.id)).secret;
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

type Outcome = { status: number; body: string; socketError: string | null } | { error: string };

/** POSTs `size` bytes to `path` in 64 KiB writes, each after the previous one was flushed. */
function slowPost(path: string, size: number, chunked: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = Buffer.alloc(size, 'a');
    const headers: Record<string, string> = appHeaders(token);
    if (!chunked) headers['content-length'] = String(size);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers, agent: false });
    let socketError: string | null = null;
    req.on('socket', (socket) =>
      socket.on('error', (e: NodeJS.ErrnoException) => (socketError = e.code ?? e.message)),
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, socketError }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    let offset = 0;
    const pump = () => {
      if (offset >= size) {
        req.end();
        return;
      }
      const part = body.subarray(offset, offset + 64 * 1024);
      offset += part.length;
      req.write(part, () => setTimeout(pump, 1));
    };
    pump();
  });
}

describe('request body over the limit', () => {
  it.each([
    ['Content-Length', false],
    ['chunked', true],
  ])(
    '5 MB with %s → 413 {error} every time, no reset',
    async (_label, chunked) => {
      const outcomes: Outcome[] = [];
      for (let i = 0; i < 6; i++)
        outcomes.push(await slowPost('/api/v1/push_tokens', 5 * 1024 * 1024, chunked));
      for (const outcome of outcomes) {
        expect(outcome).toEqual({
          status: 413,
          body: JSON.stringify({ error: 'Request body is too large' }),
          socketError: null,
        });
      }
    },
    60_000,
  );

  it('the server answers normally afterwards, on a new connection', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/me`, { headers: appHeaders(token) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { email: string }).email).toBe('big.body@example.com');
  });
});
