/**
 * One HTTP attempt (docs/webhooks.md "Outbound"): POST the body to the address resolveTarget()
 * checked (the URL's host goes only into `Host` and TLS SNI/certificate checks, never to a second
 * DNS lookup), no redirects followed (a 3xx is a failure), at most 64 KB of the answer read, the
 * whole attempt bounded by the timeout. Never throws: every outcome is an AttemptResult.
 * Connections are kept alive per checked address (agents.ts), so a burst to one receiver does not
 * open a connection per message; a kept connection the receiver closed meanwhile is retried once
 * on a new one (Node's `reusedSocket` pattern).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { agentFor } from './agents.js';

/** Most bytes of a response body read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Characters of the response kept in the delivery log. */
export const EXCERPT_CHARS = 1000;

export interface AttemptResult {
  /** HTTP status, or null when no answer came (network error, timeout, refused target). */
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

export function post(
  url: URL,
  target: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  reuse = true,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: elapsed() });
    };
    const req = client.request({
      method: 'POST',
      host: target.address,
      family: target.family,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      ...(url.protocol === 'https:' && !isIP(url.hostname.replace(/^\[|\]$/g, ''))
        ? { servername: url.hostname }
        : {}),
      headers: {
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Muster-Webhooks/1.0',
        ...headers,
      },
      agent: reuse ? agentFor(url.protocol, target.address, url.port, url.hostname) : false,
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, excerpt: null, error: `timeout after ${timeoutMs} ms` });
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === 'ECONNRESET' && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve(post(url, target, headers, body, timeoutMs, false));
        return;
      }
      done({ status: null, excerpt: null, error: error.code ?? error.message.slice(0, 200) });
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
        done({ status, excerpt: text, error: null });
      };
      res.on('data', (chunk: Buffer) => {
        const room = MAX_RESPONSE_BYTES - size;
        chunks.push(chunk.subarray(0, Math.max(0, room)));
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', finish);
      res.on('close', finish);
    });
    req.end(body);
  });
}
