/**
 * The token-less metrics listener (`MUSTER_METRICS_LISTEN=host:port`, loopback or private address
 * only, checked by config.ts): a bare `node:http` server answering `GET /metrics` with the same
 * registry as the main app's `/metrics`, for a Prometheus on the same host or private network.
 */
import { createServer, type Server } from 'node:http';
import type { Deps } from '../../deps.js';
import { metricsOf } from './metrics.registry.js';

/** Starts the listener when configured; resolves with its close function (a no-op when not). */
export async function startMetricsListener(deps: Deps): Promise<() => Promise<void>> {
  const listen = deps.config.metrics.listen;
  if (!listen) return async () => {};
  const { registry } = metricsOf(deps);
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body),
      (error: unknown) => {
        deps.log.error({ err: error }, 'metrics scrape failed');
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":"Metrics unavailable"}');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  deps.log.info({ host: listen.host, port: listen.port }, 'metrics listener started');
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
