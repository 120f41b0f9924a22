/**
 * OAuth clients: the default `muster-mobile` client (idempotent start-up hook), createOAuthClient
 * validation, and redirect URI matching (exact; loopback any port, RFC 8252 §7.3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthClients } from '../../src/db/schema/index.js';
import {
  createOAuthClient,
  cspSourceFor,
  ensureDefaultClients,
  isRegisteredRedirectUri,
  listOAuthClients,
  redirectUriProblem,
  revokeOAuthClient,
} from '../../src/modules/signin/clients.service.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('default clients', () => {
  it('ensureDefaultClients creates muster-mobile once', async () => {
    await ensureDefaultClients(t.deps.db);
    await ensureDefaultClients(t.deps.db);
    const rows = await t.deps.db.select().from(oauthClients);
    expect(rows.map((r) => [r.clientId, r.redirectUris])).toEqual([
      ['muster-mobile', ['muster://oauth/callback', 'http://127.0.0.1/callback']],
    ]);
  });
});

describe('createOAuthClient', () => {
  it('creates a client; the same id again is 409', async () => {
    const row = await createOAuthClient(t.deps.db, {
      client_id: 'partner-app',
      name: ' Partner ',
      redirect_uris: ['https://partner.example/cb', 'https://partner.example/cb', 'org.partner.app:/oauth'],
    });
    expect(row).toMatchObject({
      clientId: 'partner-app',
      name: 'Partner',
      redirectUris: ['https://partner.example/cb', 'org.partner.app:/oauth'],
    });
    await expect(
      createOAuthClient(t.deps.db, {
        client_id: 'partner-app',
        name: 'x',
        redirect_uris: ['https://x.example/'],
      }),
    ).rejects.toMatchObject({ statusCode: 409 });
  });

  it.each([
    [{ client_id: 'Bad Id', name: 'x', redirect_uris: ['https://x.example/'] }],
    [{ client_id: 'ok-id', name: ' ', redirect_uris: ['https://x.example/'] }],
    [{ client_id: 'ok-id', name: 'x', redirect_uris: [] }],
    [{ client_id: 'ok-id', name: 'x', redirect_uris: ['javascript:alert(1)'] }],
    [{ client_id: 'ok-id', name: 'x', redirect_uris: ['http://partner.example/cb'] }],
  ])('refuses %j with 422', async (input) => {
    await expect(createOAuthClient(t.deps.db, input)).rejects.toMatchObject({ statusCode: 422 });
  });
});

describe('listOAuthClients and revokeOAuthClient', () => {
  it('lists by client_id; revoking removes the client, an unknown one is 404', async () => {
    await createOAuthClient(t.deps.db, {
      client_id: 'attend-app',
      name: 'Attend',
      redirect_uris: ['attend://oauth/callback'],
    });
    const ids = (await listOAuthClients(t.deps.db)).map((c) => c.clientId);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toContain('attend-app');
    expect(await revokeOAuthClient(t.deps.db, 'attend-app')).toMatchObject({ clientId: 'attend-app' });
    expect((await listOAuthClients(t.deps.db)).map((c) => c.clientId)).not.toContain('attend-app');
    await expect(revokeOAuthClient(t.deps.db, 'attend-app')).rejects.toMatchObject({
      statusCode: 404,
      message: 'No OAuth client with client_id attend-app',
    });
  });
});

describe('redirect URIs', () => {
  it.each([
    ['https://app.example/cb', null],
    ['muster://oauth/callback', null],
    ['com.example.app:/oauth2redirect', null],
    ['http://127.0.0.1/callback', null],
    ['http://[::1]:8080/cb', null],
    ['http://localhost/callback', 'may use http only for a loopback IP (127.0.0.1 or [::1])'],
    ['http://example.com/cb', 'may use http only for a loopback IP (127.0.0.1 or [::1])'],
    ['https://app.example/cb#frag', 'must not contain a fragment'],
    ['https://user:pw@app.example/cb', 'must not contain credentials'],
    ['javascript:alert(1)', 'must not use the javascript: scheme'],
    ['data:text/html', 'must not use the data: scheme'],
    ['data:text/html,hi', 'contains characters that are not allowed'],
    ['file:///etc/passwd', 'must not use the file: scheme'],
    ['/relative', 'is not an absolute URI'],
    ["https://app.example/cb'; script-src *", 'contains characters that are not allowed'],
    ['https://APP.example/cb', 'is not in canonical form (write it as https://app.example/cb)'],
  ])('%s → %s', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });

  const client = {
    redirectUris: ['muster://oauth/callback', 'http://127.0.0.1/callback', 'https://a.example/cb'],
  };
  it.each([
    ['muster://oauth/callback', true],
    ['http://127.0.0.1/callback', true],
    ['http://127.0.0.1:51234/callback', true],
    ['https://a.example/cb', true],
    ['https://a.example:8443/cb', false],
    ['https://a.example/cb/', false],
    ['https://a.example/cb?x=1', false],
    ['MUSTER://oauth/callback', false],
    ['muster://oauth/callback#x', false],
    ['http://127.0.0.1:51234/callback?x', false],
    ['http://127.0.0.1:51234/other', false],
    ['http://localhost:51234/callback', false],
    ['http://127.0.0.2:51234/callback', false],
    ['not a uri', false],
  ])('%s registered: %s', (uri, expected) => {
    expect(isRegisteredRedirectUri(client, uri)).toBe(expected);
  });

  it('CSP form-action sources', () => {
    expect(cspSourceFor('muster://oauth/callback')).toBe('muster:');
    expect(cspSourceFor('http://127.0.0.1:5000/callback')).toBe('http://127.0.0.1:5000');
    expect(cspSourceFor('https://a.example/cb?x=1')).toBe('https://a.example');
  });
});
