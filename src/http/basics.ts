/**
 * Request basics: a JSON parser that accepts an empty body (docs/decisions.md "Status codes and check order": "a DELETE or GET sent
 * with Content-Type: application/json and no body must work"), and `Cache-Control: no-store` on
 * every response (they carry personal data), except the public OpenAPI/docs documents and the
 * static scripts under `/assets/` that set their own (public, cacheable: no personal data).
 */
import type { FastifyInstance } from 'fastify';

export function registerHttpBasics(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // JSON only: any other body type is a 400 (docs/decisions.md "Status codes and check order").
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.url;
    // Static assets and uploaded images (/media/<sha256>.<ext>, public and immutable) set their own caching.
    const ownPolicy =
      (url.startsWith('/assets/') || url.startsWith('/media/')) && reply.hasHeader('cache-control');
    if (!ownPolicy && !url.startsWith('/api/v1/docs') && !url.startsWith('/api/v1/openapi.json')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
}
