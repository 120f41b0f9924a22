/**
 * The webhooks scenario's receiver (scenarios/webhooks.ts), in its own process as a real receiver
 * would be, so it does not take the app's event loop: answers every POST 204 and records, per
 * request, the `scan_id` of its body and the arrival time (epoch ms, sub-millisecond, comparable
 * across processes). IPC: sends `{port}` once listening; on `report` sends `{arrivals}`; on `cpu`
 * sends `{cpuMs}`, this process's CPU time so far (user + system), which on a real deployment is
 * another machine's.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const arrivals: [number, number][] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    try {
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { scan_id?: number } };
      if (msg.data?.scan_id !== undefined) arrivals.push([msg.data.scan_id, at]);
    } catch {
      // Not JSON: not counted.
    }
    res.statusCode = 204;
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (m) => {
  if (m === 'report') process.send?.({ arrivals });
  if (m === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMs: (user + system) / 1000 });
  }
});
process.on('disconnect', () => process.exit(0));
