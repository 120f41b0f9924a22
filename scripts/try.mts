import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/server.js';
import { buildApp } from '../src/app.js';
import { createUser, grantEventRole } from '../src/modules/accounts/users.service.js';
import { createSeries, createEventRecord } from '../src/modules/events/records.service.js';
import { issueMobileToken, issueEventKey } from '../src/modules/credentials/issue.service.js';
import { people, registrations, scans, scanContexts } from '../src/db/schema/index.js';
const config = loadConfig({ MUSTER_DATA_DIR: 'memory://', LOG_LEVEL: 'warn', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) });
const deps = await createDeps(config);
const app = await buildApp(deps);
const setup = await deps.db.transaction(async (tx) => {
  const admin = await createUser(tx, { email: 'a@x.io', name: 'Admin', globalAdmin: true });
  const s = await createSeries(tx, { name: 'S One' });
  const e = await createEventRecord(tx, { seriesId: s.id, name: 'Ev One', supportEmail: 'x@muster.example', startsAt: '2026-12-01T10:00:00Z' });
  const [p] = await tx.insert(people).values({ email: 'kid@x.io', legalFirstName: 'Kid', legalLastName: 'Doe', dateOfBirth: '2012-05-01', address: { city: 'London', line_1: ' ' } }).returning();
  const [r] = await tx.insert(registrations).values({ eventId: e.id, personId: p!.id, status: 'complete' }).returning();
  const [ctxRow] = await tx.select().from(scanContexts);
  await tx.insert(scans).values({ eventId: e.id, registrationId: r!.id, scanContextId: ctxRow!.id, outcome: 'scanned', scannedAt: '2026-11-22T10:00:00.123456Z' });
  const tok = await issueMobileToken(tx, admin.id);
  const key = await issueEventKey(tx, e.id, { name: 'k', ownerUserId: admin.id });
  return { tok: tok.secret, key: key.secret, e, r };
});
const H = { authorization: `Bearer ${setup.tok}` };
for (const url of ['/api/v1/me', '/api/v1/events', `/api/v1/events/${setup.e.slug}/participants`, `/api/v1/events/${setup.e.id}/participants/${setup.r.id}`, `/api/v1/events/${setup.e.uuid}/participants/search?q=kid`, `/api/v1/events/${setup.e.id}/participants/lookup?email=KID@x.io`, `/api/v1/series`, `/api/v1/series/s-one/events`, '/api/v1/healthz', '/api/v1/readyz', '/api/v1/nope', `/api/v1/events/${setup.e.id}/participants?updated_since=garbage`, `/api/v1/events/${setup.e.id}/participants/abc`]) {
  const res = await app.inject({ url, headers: H });
  console.log(res.statusCode, url, res.body.slice(0, 700));
}
const k = await app.inject({ url: `/api/v1/events/${setup.e.id}/participants/roster`, headers: { authorization: `Bearer ${setup.key}` } });
console.log(k.statusCode, k.body);
const k2 = await app.inject({ url: `/api/v1/events/${setup.e.id}/participants`, headers: { authorization: `Bearer ${setup.key}` } });
console.log(k2.statusCode, k2.body);
const o = await app.inject({ url: '/api/v1/openapi.json' });
console.log(o.statusCode, o.body.length);
await app.close(); await deps.close();
