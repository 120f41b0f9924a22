/**
 * A real local HTTP receiver of outbound webhooks: records every request (headers, raw body),
 * verifies each with the `standardwebhooks` package against the secrets it is given, and answers
 * per test: `failFirst` answers 500 to the first N requests of each `webhook-id`, `status` sets the
 * answer of the others. Connections are counted (SSRF tests assert none came).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  connections: number;
  /** 500 for the first N requests of each webhook-id. */
  failFirst: number;
  /** Status of the other answers (default 204). */
  status: number;
  /** Verifies one received request with `secret` (standardwebhooks); throws when it does not verify. */
  verify(r: Received, secret: string): unknown;
  /** Waits until `test()` holds over `received` (polling; 60 s at most). */
  until(test: (received: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const attemptsById = new Map<string, number>();
  const r: Receiver = {
    url: '',
    port: 0,
    received: [],
    connections: 0,
    failFirst: 0,
    status: 204,
    verify(req, secret) {
      return new Webhook(secret).verify(req.body, {
        'webhook-id': req.id,
        'webhook-timestamp': req.timestamp,
        'webhook-signature': req.signature,
      });
    },
    async until(test, what, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!test(r.received)) {
        if (Date.now() > deadline)
          throw new Error(`receiver: timed out waiting for ${what} (${r.received.length} received)`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id'] ?? '');
      const n = (attemptsById.get(id) ?? 0) + 1;
      attemptsById.set(id, n);
      let json: Received['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { type: '', timestamp: '', data: {} };
      }
      r.received.push({
        id,
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        headers: req.headers,
        body,
        json,
      });
      res.statusCode = n <= r.failFirst ? 500 : r.status;
      res.end(n <= r.failFirst ? 'try again' : '');
    });
  });
  server.on('connection', () => {
    r.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hook`;
  return r;
}
