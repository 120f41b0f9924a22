/**
 * A real local HTTP server speaking Expo's push protocol (POST /--/api/v2/push/send), for tests:
 * records every request, answers one ticket per message — `DeviceNotRegistered` for the tokens in
 * `unregistered`, `ok` otherwise — and can fail the next N requests with a 503. Receipts
 * (POST /--/api/v2/push/getReceipts): `DeviceNotRegistered` for tickets of `receiptUnregistered`
 * tokens, `ok` for other known tickets, none for unknown ids.
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
  /** Tokens whose tickets are `ok` but whose receipts say `DeviceNotRegistered`. */
  receiptUnregistered: Set<string>;
  /** The ids asked for by each getReceipts request. */
  receiptRequests: string[][];
  failNext(n: number): void;
  /** Holds the next N push requests unanswered (a hung upstream) until close(). */
  holdNext(n: number): void;
  /** How many requests are being held. */
  heldCount(): number;
  /** Refused requests (the 503s of failNext). */
  refused: number;
  waitFor(test: (all: ExpoRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeExpo(): Promise<FakeExpo> {
  let failures = 0;
  let holds = 0;
  const held: import('node:http').ServerResponse[] = [];
  const fake = {
    requests: [] as ExpoRequest[],
    unregistered: new Set<string>(),
    receiptUnregistered: new Set<string>(),
    receiptRequests: [] as string[][],
    refused: 0,
  };
  const tokenOfTicket = new Map<string, string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/--/api/v2/push/getReceipts') {
        const { ids } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ids: string[] };
        fake.receiptRequests.push(ids);
        const data: Record<string, unknown> = {};
        for (const id of ids) {
          const token = tokenOfTicket.get(id);
          if (token === undefined) continue; // unknown id: no receipt
          data[id] = fake.receiptUnregistered.has(token)
            ? { status: 'error', message: 'not registered', details: { error: 'DeviceNotRegistered' } }
            : { status: 'ok' };
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
        return;
      }
      if (req.method !== 'POST' || req.url !== '/--/api/v2/push/send') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"code":"NOT_FOUND"}]}');
        return;
      }
      if (holds > 0) {
        holds--;
        held.push(res);
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
      data.forEach((ticket, i) => {
        const id = (ticket as { id?: string }).id;
        if (id) tokenOfTicket.set(id, messages[i]!.to);
      });
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
    holdNext(n: number) {
      holds = n;
    },
    heldCount: () => held.length,
    async waitFor(test: (all: ExpoRequest[]) => boolean, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (!test(fake.requests)) {
        if (Date.now() > until) throw new Error('timed out waiting for the fake Expo server');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
