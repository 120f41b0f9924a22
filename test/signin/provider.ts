/**
 * A real local identity provider for the sign-in tests: oidc-provider on a loopback port, logins
 * answered by an interaction handler (the account named by `provider.nextLogin`, or a refusal), a
 * cookie-keeping walk through its redirects, and `/userinfo-oauth2`: the userinfo endpoint of a
 * plain OAuth 2.0 provider (scope `email` without `openid`, as the deployed mobile app asks),
 * answered from the provider's own access tokens (oidc-provider's /me insists on `openid`).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import * as oauth from 'oauth4webapi';
import Provider, { type ClientMetadata } from 'oidc-provider';

export type Account = { email: string; email_verified: boolean };

export interface TestProvider {
  issuer: string;
  server: http.Server;
  /** The account the next login signs in as; `deny` makes the provider refuse. */
  nextLogin: string;
  /** Follows the provider's redirects (keeping cookies) from `start` until one leaves `issuer`. */
  walk(start: URL): Promise<URL>;
  close(): Promise<void>;
}

export async function startProvider(
  port: number,
  clients: ClientMetadata[],
  accounts: Record<string, Account>,
): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients,
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts[sub];
      return account && { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['muster-test-cookie-key'] },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
  });
  const handle = provider.callback();
  const state: TestProvider = {
    issuer,
    nextLogin: 'deny',
    server: http.createServer(async (req, res) => {
      try {
        if (req.url === '/userinfo-oauth2') return await userinfo(req, res);
        if (!req.url?.startsWith('/interaction/')) return handle(req, res);
        await interaction(req, res);
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
    }),
    async walk(start) {
      const cookies = new Map<string, string>();
      let url = start;
      for (let hops = 0; hops < 20; hops++) {
        if (url.origin !== issuer) return url;
        const res = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          const i = pair!.indexOf('=');
          cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
        }
        const location = res.headers.get('location');
        if (res.status < 300 || res.status >= 400 || !location)
          throw new Error(`provider answered ${res.status}: ${await res.text()}`);
        url = new URL(location, issuer);
      }
      throw new Error('too many redirects');
    },
    close: () => new Promise<void>((resolve) => state.server.close(() => resolve())),
  };

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (state.nextLogin === 'deny') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied' },
        { mergeWithLastSubmission: false },
      );
    } else if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: state.nextLogin } });
    } else {
      const grant = new provider.Grant({
        accountId: details.session!.accountId,
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope(String(details.params.scope));
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
    }
  }

  async function userinfo(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
    const account = token && accounts[token.accountId];
    res.setHeader('content-type', 'application/json');
    if (!token || !account || !String(token.scope).split(' ').includes('email')) {
      res.statusCode = 401;
      res.setHeader('www-authenticate', 'Bearer error="invalid_token"');
      res.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    res.end(JSON.stringify({ sub: token.accountId, ...account }));
  }

  await new Promise<void>((resolve) => state.server.listen(port, '127.0.0.1', resolve));
  return state;
}

/**
 * What the mobile app does before calling Muster (mobile-app.md §2.1): the provider's authorize
 * endpoint with PKCE S256 (a 128-character verifier), scope `email` and a random `state`, signed in
 * as `login`. Returns the provider's code for `redirectUri` and the verifier.
 */
export async function appAuthorize(
  idp: TestProvider,
  login: string,
  clientId: string,
  redirectUri: string,
): Promise<{ code: string; verifier: string }> {
  idp.nextLogin = login;
  const verifier = randomBytes(96).toString('base64url');
  const state = oauth.generateRandomState();
  const authorize = new URL(`${idp.issuer}/auth`);
  for (const [k, v] of Object.entries({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'email',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  }))
    authorize.searchParams.set(k, v);
  const back = await idp.walk(authorize);
  if (!back.href.startsWith(`${redirectUri}?`) || back.searchParams.get('state') !== state) {
    throw new Error(`the provider did not return to ${redirectUri} with the state: ${back.href}`);
  }
  return { code: back.searchParams.get('code') ?? '', verifier };
}
