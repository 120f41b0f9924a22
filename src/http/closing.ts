/**
 * Stopping without waiting on idle sockets (docs/operations.md "Stopping").
 *
 * `app.close()` stops listening, lets every request Fastify already received finish, and waits for
 * all connections to end. Two kinds of socket would hold it open past the process's 10 s stop
 * deadline (cli/stop.ts):
 * - keep-alive connections between requests: while closing, every response carries
 *   `Connection: close`, so a connection ends with the answer it is carrying;
 * - connections accepted by Node on which no request reached Fastify (seen under load: 29 sockets
 *   open, none with a request in progress, for the whole deadline). Once no request is in progress,
 *   they are closed every CLOSE_POLL_MS: nothing was read from them, so nothing is lost or half
 *   done (their clients get a reset, and the request was never acted on).
 * A request counts as in progress from `onRequest` until its response is finished or its socket
 * closes (a client that gives up is not waited for). The same count, summed over the process, is
 * what webhook deliveries give way to (lib/api-load.ts).
 */
import type { FastifyInstance } from 'fastify';
import { apiLoad } from '../lib/api-load.js';

export const CLOSE_POLL_MS = 100;

export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let inProgress = 0;
  app.addHook('onRequest', async (_request, reply) => {
    inProgress++;
    apiLoad.started();
    let done = false;
    reply.raw.once('close', () => {
      if (!done) {
        inProgress--;
        apiLoad.ended();
      }
      done = true;
    });
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('preClose', async () => {
    closing = true;
    const timer = setInterval(() => {
      if (inProgress === 0) app.server.closeAllConnections();
    }, CLOSE_POLL_MS);
    timer.unref();
    app.server.once('close', () => clearInterval(timer));
  });
}
