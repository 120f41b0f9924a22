/**
 * Secrets never reach the log (brief "Secrets"): the guardian portal's path token and `token=`
 * query parameters are redacted from the request log line, as are Authorization headers.
 */
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from '../../src/logger.js';

describe('redactUrl', () => {
  it.each([
    ['/api/v1/guardian/abcDEF123_-x', '/api/v1/guardian/[redacted]'],
    ['/guardian/abc/complete', '/guardian/[redacted]/complete'],
    ['/register/accept?token=s3cr3t&x=1', '/register/accept?token=[redacted]&x=1'],
    ['/x?a=1&invitation_token=zz', '/x?a=1&invitation_token=[redacted]'],
    ['/api/v1/events/12/participants', '/api/v1/events/12/participants'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('the request log', () => {
  it('carries no guardian token, invitation token or bearer secret', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ loggerInstance: createLogger('info', sink) });
    app.get('/api/v1/guardian/:token', async () => ({ ok: true }));
    await app.inject({
      method: 'GET',
      url: '/api/v1/guardian/GUARDIANSECRET?token=QUERYSECRET',
      headers: { authorization: 'Bearer mst_m_BEARERSECRET' },
    });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('/api/v1/guardian/[redacted]?token=[redacted]');
    for (const secret of ['GUARDIANSECRET', 'QUERYSECRET', 'BEARERSECRET']) expect(log).not.toContain(secret);
  });
});
