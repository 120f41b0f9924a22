/**
 * The webhooks scenario's floor sender (scenarios/webhooks-floor.ts): a bare process with no
 * database that POSTs signed deliveries to the bench's receiver as the dispatcher would (Standard
 * Webhooks headers signed by the `standardwebhooks` package, a body shaped like a `scan.created`
 * message, keep-alive `node:http` connections, a fixed number in flight). What the door loses while
 * it runs is what the machine itself allows for delivering, with no outbox, claim or log.
 * IPC: on `{run: {urls, count, concurrency}}` sends `count` POSTs round-robin over `urls`, then
 * answers `{done: {ok, cpuMs}}` (2xx answers, this process's CPU time for the run in ms).
 * Bodies carry negative `scan_id`s, so the receiver's arrivals never match a real scan.
 */
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const signer = new Webhook(secret);

async function run(urls: string[], count: number, concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const cpu0 = process.cpuUsage();
  let next = 0;
  let ok = 0;
  const one = (k: number) =>
    new Promise<void>((resolve) => {
      const url = new URL(urls[k % urls.length]!);
      const at = new Date();
      const msgId = `msg_floor${k}`;
      const body = JSON.stringify({
        type: 'scan.created',
        timestamp: at.toISOString(),
        data: {
          event_id: 1,
          scan_id: -1 - k,
          participant_event_id: k,
          scan_context_id: 1,
          type: 'entry',
          verdict: null,
          forced: false,
          scanned_at: at.toISOString(),
        },
      });
      const req = http.request(
        {
          method: 'POST',
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'Muster-Webhooks/1.0',
            'webhook-id': msgId,
            'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
            'webhook-signature': signer.sign(msgId, at, body),
          },
        },
        (res) => {
          if (res.statusCode && res.statusCode < 300) ok++;
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => resolve());
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await one(next++);
    }),
  );
  agent.destroy();
  const { user, system } = process.cpuUsage(cpu0);
  return { ok, cpuMs: Math.round((user + system) / 1000) };
}

process.on('message', (m: { run?: { urls: string[]; count: number; concurrency: number } }) => {
  if (m.run) void run(m.run.urls, m.run.count, m.run.concurrency).then((done) => process.send?.({ done }));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
