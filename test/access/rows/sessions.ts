/**
 * Authorization-matrix rows for the session, revocation and push-token routes, transcribed from the
 * spec ("Authentication" rules 1–3, "POST /session/refresh", "POST /tokens/revoke") and docs/decisions.md "Status codes and check order"
 * (check order 401 → 403 → 404 → 422), §3 and §9 — not from src/access. To be wired into
 * test/access/matrix.test.ts; test/sessions/rows.test.ts runs them on their own meanwhile.
 *
 * - DELETE /session, POST /session/refresh: a live mobile token only (docs/decisions.md "Account and sessions"). Any other valid
 *   credential (global tokens, keys) 403; no or an invalid credential 401. Each 200 cell revokes the
 *   token it presents, so those rows present a FRESH mobile token of the principal's user
 *   (`credential: 'fresh'`, see createSessionFixtures/requestFor), never the world's shared one.
 * - POST /tokens/revoke: public; the Authorization header plays no part. Every well-formed JSON
 *   request is 200; the rows send an unknown secret and a malformed one (`{success:false}` both).
 *   The route is rate limited per IP, so every row names its own client address (`remoteAddress`).
 * - POST /push_tokens, DELETE /push_tokens/{token}, DELETE /push_tokens: user credentials (mobile
 *   token, unscoped global token); keys 403; the `bans:write` token 403 with the scope message.
 *   Check order: an invalid body is 422 only for callers who get past 401/403.
 *
 * Each row: { method, route (Fastify route key, for the coverage test), url, body?, principal,
 * target, credential, expected: { status, error?, body? } }.
 */
import { pushTokens } from '../../../src/db/schema/index.js';
import type { Deps } from '../../../src/deps.js';
import { generateApiSecret } from '../../../src/lib/secrets.js';
import { issueMobileToken } from '../../../src/modules/credentials/issue.service.js';
import { PRINCIPALS, type PrincipalName, type UserName, type World } from '../../support/world.js';

type Target = '-' | 'unknown' | 'malformed' | 'valid' | 'invalid' | 'own' | 'missing';

export interface SessionMatrixRow {
  method: 'POST' | 'DELETE';
  /** Fastify route key, e.g. `DELETE /api/v1/push_tokens/:token`. */
  route: string;
  /** Request URL; `{own}` stands for this row's own registered push token (URL-encoded). */
  url: string;
  body?: unknown;
  principal: PrincipalName;
  target: Target;
  /** `fresh`: present a new mobile token of the principal's user (the request revokes it). */
  credential: 'world' | 'fresh';
  expected: { status: number; error?: string; body?: unknown };
}

const P = '/api/v1';
const UNAUTHORIZED = 'Unauthorized';
const SCOPED = 'This token is limited to: bans:write';
const NOT_FOUND = 'Push token not found';

type Table = Record<PrincipalName, string>;

/** DELETE /session and POST /session/refresh: one column. */
// biome-ignore format: the matrix is a hand-aligned literal table
const SESSION: Table = {
  none:             '401',
  garbage:          '401',
  badChecksum:      '401',
  revokedEventKey:  '401',
  expiredMobile:    '401',
  revokedMobile:    '401',
  expiredGlobal:    '401',
  revokedGlobal:    '401',
  demotedGlobal:    '401',
  participant:      '200',
  readOnly:         '200',
  limited:          '200',
  ops:              '200',
  eventAdmin:       '200',
  safeguarding:     '200',
  seriesOwner:      '200',
  seriesOrganizer:  '200',
  admin:            '200',
  globalToken:      '403',
  scopedToken:      '403',
  seriesKeyS1:      '403',
  seriesKeyS2:      '403',
  eventKeyA:        '403',
  eventKeyB:        '403',
  eventKeyC:        '403',
  legacyKeyA:       '403',
};

/** POST /tokens/revoke: an unknown well-formed secret, and a malformed one. Public: all 200. */
// biome-ignore format: the matrix is a hand-aligned literal table
const REVOKE: Table = {
  //                 unknown malformed
  none:             '200     200',
  garbage:          '200     200',
  badChecksum:      '200     200',
  revokedEventKey:  '200     200',
  expiredMobile:    '200     200',
  revokedMobile:    '200     200',
  expiredGlobal:    '200     200',
  revokedGlobal:    '200     200',
  demotedGlobal:    '200     200',
  participant:      '200     200',
  readOnly:         '200     200',
  limited:          '200     200',
  ops:              '200     200',
  eventAdmin:       '200     200',
  safeguarding:     '200     200',
  seriesOwner:      '200     200',
  seriesOrganizer:  '200     200',
  admin:            '200     200',
  globalToken:      '200     200',
  scopedToken:      '200     200',
  seriesKeyS1:      '200     200',
  seriesKeyS2:      '200     200',
  eventKeyA:        '200     200',
  eventKeyB:        '200     200',
  eventKeyC:        '200     200',
  legacyKeyA:       '200     200',
};

/** POST /push_tokens: a new Expo token for this principal (`valid`), and `{token:"nope"}` (`invalid`). */
// biome-ignore format: the matrix is a hand-aligned literal table
const PUSH_REGISTER: Table = {
  //                 valid invalid
  none:             '401   401',
  garbage:          '401   401',
  badChecksum:      '401   401',
  revokedEventKey:  '401   401',
  expiredMobile:    '401   401',
  revokedMobile:    '401   401',
  expiredGlobal:    '401   401',
  revokedGlobal:    '401   401',
  demotedGlobal:    '401   401',
  participant:      '201   422',
  readOnly:         '201   422',
  limited:          '201   422',
  ops:              '201   422',
  eventAdmin:       '201   422',
  safeguarding:     '201   422',
  seriesOwner:      '201   422',
  seriesOrganizer:  '201   422',
  admin:            '201   422',
  globalToken:      '201   422',
  scopedToken:      '403   403',
  seriesKeyS1:      '403   403',
  seriesKeyS2:      '403   403',
  eventKeyA:        '403   403',
  eventKeyB:        '403   403',
  eventKeyC:        '403   403',
  legacyKeyA:       '403   403',
};

/**
 * DELETE /push_tokens/{token} and DELETE /push_tokens {token}: the principal's own registered token
 * (`own`, a fixture per row) and one nobody registered (`missing`).
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const PUSH_DELETE: Table = {
  //                 own  missing
  none:             '401  401',
  garbage:          '401  401',
  badChecksum:      '401  401',
  revokedEventKey:  '401  401',
  expiredMobile:    '401  401',
  revokedMobile:    '401  401',
  expiredGlobal:    '401  401',
  revokedGlobal:    '401  401',
  demotedGlobal:    '401  401',
  participant:      '200  404',
  readOnly:         '200  404',
  limited:          '200  404',
  ops:              '200  404',
  eventAdmin:       '200  404',
  safeguarding:     '200  404',
  seriesOwner:      '200  404',
  seriesOrganizer:  '200  404',
  admin:            '200  404',
  globalToken:      '200  404',
  scopedToken:      '403  403',
  seriesKeyS1:      '403  403',
  seriesKeyS2:      '403  403',
  eventKeyA:        '403  403',
  eventKeyB:        '403  403',
  eventKeyC:        '403  403',
  legacyKeyA:       '403  403',
};

/** The user behind each principal that may act as a user (global tokens act as their owner). */
const USER_OF: Partial<Record<PrincipalName, UserName>> = {
  participant: 'participant',
  readOnly: 'readOnly',
  limited: 'limited',
  ops: 'ops',
  eventAdmin: 'eventAdmin',
  safeguarding: 'safeguarding',
  seriesOwner: 'seriesOwner',
  seriesOrganizer: 'seriesOrganizer',
  admin: 'admin',
  globalToken: 'admin',
};

/** The push token a row registers or deletes (unique per route, target and principal). */
const pushToken = (route: string, target: Target, principal: PrincipalName) =>
  `ExponentPushToken[matrix-${route.includes(':token') ? 'path' : route.startsWith('DELETE') ? 'body' : 'new'}-${target}-${principal}]`;

interface Column {
  target: Target;
  url: string;
  body?: (route: string, p: PrincipalName) => unknown;
}

interface RouteDef {
  method: 'POST' | 'DELETE';
  route: string;
  table: Table;
  columns: Column[];
  /** The body every 200 answer must equal, when it is fixed. */
  okBody?: (target: Target) => unknown;
}

const ROUTES: RouteDef[] = [
  {
    method: 'DELETE',
    route: `DELETE ${P}/session`,
    table: SESSION,
    columns: [{ target: '-', url: `${P}/session` }],
    okBody: () => ({ success: true }),
  },
  {
    method: 'POST',
    route: `POST ${P}/session/refresh`,
    table: SESSION,
    columns: [{ target: '-', url: `${P}/session/refresh` }],
  },
  {
    method: 'POST',
    route: `POST ${P}/tokens/revoke`,
    table: REVOKE,
    columns: [
      {
        target: 'unknown',
        url: `${P}/tokens/revoke`,
        body: () => ({ token: generateApiSecret('event_key') }),
      },
      { target: 'malformed', url: `${P}/tokens/revoke`, body: () => ({ token: 'not-a-secret' }) },
    ],
    okBody: () => ({ success: false }),
  },
  {
    method: 'POST',
    route: `POST ${P}/push_tokens`,
    table: PUSH_REGISTER,
    columns: [
      { target: 'valid', url: `${P}/push_tokens`, body: (r, p) => ({ token: pushToken(r, 'valid', p) }) },
      { target: 'invalid', url: `${P}/push_tokens`, body: () => ({ token: 'nope' }) },
    ],
    okBody: () => ({ success: true }),
  },
  {
    method: 'DELETE',
    route: `DELETE ${P}/push_tokens/:token`,
    table: PUSH_DELETE,
    columns: [
      { target: 'own', url: `${P}/push_tokens/{own}` },
      {
        target: 'missing',
        url: `${P}/push_tokens/${encodeURIComponent('ExponentPushToken[matrix-nobody]')}`,
      },
    ],
    okBody: () => ({ success: true }),
  },
  {
    method: 'DELETE',
    route: `DELETE ${P}/push_tokens`,
    table: PUSH_DELETE,
    columns: [
      { target: 'own', url: `${P}/push_tokens`, body: (r, p) => ({ token: pushToken(r, 'own', p) }) },
      {
        target: 'missing',
        url: `${P}/push_tokens`,
        body: () => ({ token: 'ExponentPushToken[matrix-nobody]' }),
      },
    ],
    okBody: () => ({ success: true }),
  },
];

function expectedError(def: RouteDef, principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return UNAUTHORIZED;
  if (status === 403 && principal === 'scopedToken') return SCOPED;
  if (status === 404 && def.route.includes('push_tokens')) return NOT_FOUND;
  return undefined;
}

/** Every cell: 6 routes × 26 principals (1 + 1 + 2 + 2 + 2 + 2 columns). */
export const sessionRows: SessionMatrixRow[] = ROUTES.flatMap((def) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = def.table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== def.columns.length) {
      throw new Error(
        `${def.route} ${principal}: ${statuses.length} columns, expected ${def.columns.length}`,
      );
    }
    return def.columns.map((col, i): SessionMatrixRow => {
      const status = statuses[i]!;
      const error = expectedError(def, principal, status);
      const ok = status < 300 && def.okBody ? def.okBody(col.target) : undefined;
      const fresh = def.table === SESSION && status === 200;
      return {
        method: def.method,
        route: def.route,
        url: col.url,
        ...(col.body ? { body: col.body(def.route, principal) } : {}),
        principal,
        target: col.target,
        credential: fresh ? 'fresh' : 'world',
        expected: {
          status,
          ...(error === undefined ? {} : { error }),
          ...(ok === undefined ? {} : { body: ok }),
        },
      };
    });
  }),
);

/** The Fastify route keys the rows cover (for the matrix coverage test). */
export const sessionRouteKeys: string[] = ROUTES.map((r) => r.route);

export interface SessionFixtures {
  /** Fresh mobile token per `${route}|${principal}` row with credential `fresh`. */
  fresh: Map<string, string>;
}

const cellKey = (row: Pick<SessionMatrixRow, 'route' | 'target' | 'principal'>) =>
  `${row.route}|${row.target}|${row.principal}`;

/**
 * Issues a fresh mobile token for every `fresh` row, and registers the `own` push token of every
 * user principal on the two DELETE push-token routes. Call after buildWorld().
 */
export async function createSessionFixtures(deps: Pick<Deps, 'db'>, world: World): Promise<SessionFixtures> {
  const fresh = new Map<string, string>();
  await deps.db.transaction(async (tx) => {
    for (const row of sessionRows) {
      const user = USER_OF[row.principal];
      if (row.credential === 'fresh') {
        if (!user) throw new Error(`No user behind ${row.principal}`);
        const tok = await issueMobileToken(tx, world.users[user].id, {
          deviceName: `matrix ${row.principal}`,
        });
        fresh.set(cellKey(row), tok.secret);
      }
      if (row.target === 'own' && user) {
        await tx.insert(pushTokens).values({
          userId: world.users[user].id,
          token: pushToken(row.route, 'own', row.principal),
          platform: 'expo',
        });
      }
    }
  });
  return { fresh };
}

/** The concrete request of a row: its bearer secret, `{own}` resolved, and its own client address. */
export function requestFor(
  row: SessionMatrixRow,
  fixtures: SessionFixtures,
  world: World,
): {
  method: 'POST' | 'DELETE';
  url: string;
  payload?: string;
  headers: Record<string, string>;
  remoteAddress: string;
} {
  const secret = row.credential === 'fresh' ? fixtures.fresh.get(cellKey(row)) : world.secrets[row.principal];
  if (row.credential === 'fresh' && !secret) throw new Error(`No fresh token for ${cellKey(row)}`);
  const url = row.url.replace('{own}', encodeURIComponent(pushToken(row.route, 'own', row.principal)));
  const index = sessionRows.indexOf(row);
  return {
    method: row.method,
    url,
    ...(row.body === undefined ? {} : { payload: JSON.stringify(row.body) }),
    headers: {
      ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }),
      ...(row.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    // Distinct per row (POST /tokens/revoke is rate limited per IP).
    remoteAddress: `10.250.${(index >> 8) & 255}.${index & 255}`,
  };
}
