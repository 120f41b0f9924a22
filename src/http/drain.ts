/**
 * Answering before the request body was read, without resetting the connection.
 *
 * When a body is refused before it is read (413 over the body limit, a malformed length), Fastify
 * answers with `Connection: close`, and Node closes the socket as soon as the answer is written.
 * A client still sending its body then gets the connection reset (EPIPE/ECONNRESET) instead of the
 * 413: closing a socket with unread incoming data sends a TCP RST. So the rest of the body is read
 * and discarded first (at most DRAIN_MAX_BYTES or DRAIN_MAX_MS: past that, an abusive client gets
 * the reset), then the answer goes out and the connection closes cleanly.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
export const DRAIN_MAX_MS = 10_000;

/** Reads and discards what is left of `raw`'s body; resolves at its end, or at a limit. */
export function drainBody(raw: IncomingMessage): Promise<void> {
  if (bodyRead(raw)) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('error', finish);
      raw.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAIN_MAX_MS);
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}

/**
 * True when nothing is left to read: the body arrived in full, the stream already ended (a parser
 * consumed it, as with malformed JSON), or the socket is gone.
 */
function bodyRead(raw: IncomingMessage): boolean {
  return raw.complete || raw.readableEnded || raw.destroyed;
}

/** An onSend hook: an answer that closes the connection waits until the request body is read. */
export function registerBodyDrain(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const closing = String(reply.getHeader('connection') ?? '').toLowerCase() === 'close';
    if (closing && !bodyRead(request.raw)) await drainBody(request.raw);
    return payload;
  });
}
