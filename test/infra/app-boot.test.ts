/** The app refuses to start when a route declares no access action (architecture "rules of the house"). */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { registeredRoutes, trackRoutes, UndeclaredRouteError } from '../../src/http/route-table.js';

describe('route declarations', () => {
  it('throws at registration when a route has neither config.action nor config.public', async () => {
    const app = Fastify();
    trackRoutes(app);
    expect(() => app.get('/api/v1/undeclared', async () => ({}))).toThrow(UndeclaredRouteError);
    expect(() =>
      app.get('/api/v1/bogus', { config: { action: 'no.such.action' as never } }, async () => ({})),
    ).toThrow(UndeclaredRouteError);
    app.get('/api/v1/declared', { config: { action: 'account.me' } }, async () => ({}));
    expect(registeredRoutes(app)).toEqual([
      { method: 'GET', url: '/api/v1/declared', action: 'account.me', credential: 'bearer' },
    ]);
    await app.close();
  });
});

describe('configuration', () => {
  it('names the variable that is invalid', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
  it('applies defaults and normalises operator domains', () => {
    const c = loadConfig({ MUSTER_OPERATOR_DOMAINS: ' Muster.Example , events.muster.example' });
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe('./data');
    expect(c.operatorDomains).toEqual(['muster.example', 'events.muster.example']);
    expect(c.baseUrl).toBe('http://127.0.0.1:3000');
    expect(c.workerNice).toBe(0);
  });
  it('a whole-number setting written with a fraction or words is refused, naming it', () => {
    for (const [name, bad] of [
      ['MUSTER_DB_POOL_SIZE', '2.5'],
      ['PORT', '3000.0'],
      ['MUSTER_RETENTION_DAYS', '30 days'],
      ['MUSTER_BACKUP_KEEP', '1e3'],
    ] as const)
      expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(
        new RegExp(`Invalid configuration: ${name} must be a whole number`),
      );
    expect(loadConfig({ MUSTER_DB_POOL_SIZE: ' 12 ' }).dbPoolSize).toBe(12);
  });

  it('MUSTER_WORKER_NICE: an integer from 0 to 19', () => {
    expect(loadConfig({ MUSTER_WORKER_NICE: '0' }).workerNice).toBe(0);
    expect(loadConfig({ MUSTER_WORKER_NICE: '19' }).workerNice).toBe(19);
    for (const bad of ['20', '-1', '2.5', 'low'])
      expect(() => loadConfig({ MUSTER_WORKER_NICE: bad }), bad).toThrow(/MUSTER_WORKER_NICE/);
  });
});
