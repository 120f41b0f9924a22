/**
 * A real local HTTP server speaking Expo's push protocol (POST /--/api/v2/push/send), for tests:
 * records every request, answers one ticket per message — `DeviceNotRegistered` for the tokens in
 * `unregistered`, `ok` otherwise — and can fail the next N requests with a 503.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ExpoRequest {
  headers: IncomingHttpHeaders;
  messages: { to: string; title: string; body: string; data: Record<string, unknown> }[];
}

export interface FakeExpo {
  url: string;
  requests: ExpoRequest[];
  unregistered: Set<string>;
  failNext(n: number): void;
  /** Refused requests (the 503s of failNext). */
  refused: number;
  waitFor(test: (all: ExpoRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeExpo(): Promise<FakeExpo> {
  let failures = 0;
  const fake = {
    requests: [] as ExpoRequest[],
    unregistered: new Set<string>(),
    refused: 0,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/--/api/v2/push/send') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"code":"NOT_FOUND"}]}');
        return;
      }
      if (failures > 0) {
        failures--;
        fake.refused++;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"errors":[{"code":"UNAVAILABLE"}]}');
        return;
      }
      const messages = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExpoRequest['messages'];
      fake.requests.push({ headers: req.headers, messages });
      const data = messages.map((m) =>
        fake.unregistered.has(m.to)
          ? {
              status: 'error',
              message: `"${m.to}" is not a registered push notification recipient`,
              details: { error: 'DeviceNotRegistered', expoPushToken: m.to },
            }
          : { status: 'ok', id: randomUUID() },
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    failNext(n: number) {
      failures = n;
    },
    async waitFor(test: (all: ExpoRequest[]) => boolean, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (!test(fake.requests)) {
        if (Date.now() > until) throw new Error('timed out waiting for the fake Expo server');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
