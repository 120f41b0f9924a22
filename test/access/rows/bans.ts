/**
 * Authorization-matrix rows for the ban list (spec "POST /bans", "Authentication", "Errors";
 * docs/decisions.md "Credentials and roles"), transcribed from the spec, not from src/access. To be wired into
 * test/access/matrix.test.ts; test/bans/rows.test.ts runs them on their own meanwhile.
 *
 * - POST /bans: global admin (mobile), unscoped global token and the `bans:write`-scoped token.
 * - GET /bans, GET /bans/{id}, revoke, reinstate: global admin (mobile) and unscoped global token;
 *   the scoped token gets 403 `This token is limited to: bans:write`.
 * - Everyone else who is authenticated, keys included: 403 `Only global admins can manage the ban
 *   list`, decided before the target (404) and the body (422). A demoted owner's global token is no
 *   longer honoured: 401, like every other bad credential.
 *
 * Each row: { method, route (Fastify route key, for the coverage test), url, body?, principal,
 * target, expected: { status, error? } }. URLs of existing bans name a placeholder (`{ban}`); build
 * the bans with createBanFixtures() after buildWorld() and resolve each row with requestFor().
 * Every allowed write has its own ban (per principal and route), so rows are order-independent;
 * denied rows can be replayed any number of times.
 */
import { banEmails, bans } from '../../../src/db/schema/index.js';
import type { Deps } from '../../../src/deps.js';
import { PRINCIPALS, type PrincipalName, type World } from '../../support/world.js';

export interface BanMatrixRow {
  method: 'GET' | 'POST';
  /** Fastify route key, e.g. `POST /api/v1/bans/:id/revoke`. */
  route: string;
  /** Request URL; `{ban}` stands for the fixture ban of this row (see requestFor). */
  url: string;
  body?: Record<string, unknown>;
  principal: PrincipalName;
  /** Column label: which target or body the row uses. */
  target: BanTarget;
  expected: { status: number; error?: string };
}

type BanTarget = 'valid' | 'invalid' | 'list' | 'ban' | 'missing' | 'junk' | 'active' | 'revoked';

const P = '/api/v1';
const MISSING_BAN = '00000000-0000-4000-8000-00000000ba11';
const UNAUTHORIZED = 'Unauthorized';
const ONLY_ADMINS = 'Only global admins can manage the ban list';
const SCOPED = 'This token is limited to: bans:write';

type Table = Record<PrincipalName, string>;

/**
 * Status per principal, one column per target. POST /bans columns: `valid` (a fresh address per
 * principal) and `invalid` (`{emails: []}`: 422 for those allowed; 403 still wins for the others).
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const CREATE: Table = {
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
  participant:      '403   403',
  readOnly:         '403   403',
  limited:          '403   403',
  ops:              '403   403',
  eventAdmin:       '403   403',
  safeguarding:     '403   403',
  seriesOwner:      '403   403',
  seriesOrganizer:  '403   403',
  admin:            '201   422',
  globalToken:      '201   422',
  scopedToken:      '201   422',
  seriesKeyS1:      '403   403',
  seriesKeyS2:      '403   403',
  eventKeyA:        '403   403',
  eventKeyB:        '403   403',
  eventKeyC:        '403   403',
  legacyKeyA:       '403   403',
};

/** GET /bans (`list`) and GET /bans/{id}: an existing ban, a missing UUID, a non-UUID id. */
// biome-ignore format: the matrix is a hand-aligned literal table
const READ: Table = {
  //                 list ban  missing junk
  none:             '401  401  401     401',
  garbage:          '401  401  401     401',
  badChecksum:      '401  401  401     401',
  revokedEventKey:  '401  401  401     401',
  expiredMobile:    '401  401  401     401',
  revokedMobile:    '401  401  401     401',
  expiredGlobal:    '401  401  401     401',
  revokedGlobal:    '401  401  401     401',
  demotedGlobal:    '401  401  401     401',
  participant:      '403  403  403     403',
  readOnly:         '403  403  403     403',
  limited:          '403  403  403     403',
  ops:              '403  403  403     403',
  eventAdmin:       '403  403  403     403',
  safeguarding:     '403  403  403     403',
  seriesOwner:      '403  403  403     403',
  seriesOrganizer:  '403  403  403     403',
  admin:            '200  200  404     404',
  globalToken:      '200  200  404     404',
  scopedToken:      '403  403  403     403',
  seriesKeyS1:      '403  403  403     403',
  seriesKeyS2:      '403  403  403     403',
  eventKeyA:        '403  403  403     403',
  eventKeyB:        '403  403  403     403',
  eventKeyC:        '403  403  403     403',
  legacyKeyA:       '403  403  403     403',
};

/**
 * POST /bans/{id}/revoke and /reinstate: an active ban, a revoked ban, a missing UUID, a non-UUID
 * id. Revoke: active 200, revoked 409. Reinstate: active 409, revoked 200.
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const MANAGE_REVOKE: Table = {
  //                 active revoked missing junk
  none:             '401    401     401     401',
  garbage:          '401    401     401     401',
  badChecksum:      '401    401     401     401',
  revokedEventKey:  '401    401     401     401',
  expiredMobile:    '401    401     401     401',
  revokedMobile:    '401    401     401     401',
  expiredGlobal:    '401    401     401     401',
  revokedGlobal:    '401    401     401     401',
  demotedGlobal:    '401    401     401     401',
  participant:      '403    403     403     403',
  readOnly:         '403    403     403     403',
  limited:          '403    403     403     403',
  ops:              '403    403     403     403',
  eventAdmin:       '403    403     403     403',
  safeguarding:     '403    403     403     403',
  seriesOwner:      '403    403     403     403',
  seriesOrganizer:  '403    403     403     403',
  admin:            '200    409     404     404',
  globalToken:      '200    409     404     404',
  scopedToken:      '403    403     403     403',
  seriesKeyS1:      '403    403     403     403',
  seriesKeyS2:      '403    403     403     403',
  eventKeyA:        '403    403     403     403',
  eventKeyB:        '403    403     403     403',
  eventKeyC:        '403    403     403     403',
  legacyKeyA:       '403    403     403     403',
};

/** Reinstate: the same principals as revoke, with the allowed outcomes swapped. */
const MANAGE_REINSTATE: Table = Object.fromEntries(
  PRINCIPALS.map((p) => [
    p,
    MANAGE_REVOKE[p]
      .trim()
      .split(/\s+/)
      .map((s, i) => (i === 0 && s === '200' ? '409' : i === 1 && s === '409' ? '200' : s))
      .join(' '),
  ]),
) as Table;

interface RouteDef {
  method: 'GET' | 'POST';
  route: string;
  table: Table;
  columns: { target: BanTarget; url: string; body?: (p: PrincipalName) => Record<string, unknown> }[];
}

const ROUTES: RouteDef[] = [
  {
    method: 'POST',
    route: `POST ${P}/bans`,
    table: CREATE,
    columns: [
      { target: 'valid', url: `${P}/bans`, body: (p) => ({ email: `matrix-${p.toLowerCase()}@ban.test` }) },
      { target: 'invalid', url: `${P}/bans`, body: () => ({ emails: [] }) },
    ],
  },
  {
    method: 'GET',
    route: `GET ${P}/bans`,
    table: pick(READ, [0]),
    columns: [{ target: 'list', url: `${P}/bans` }],
  },
  {
    method: 'GET',
    route: `GET ${P}/bans/:id`,
    table: pick(READ, [1, 2, 3]),
    columns: [
      { target: 'ban', url: `${P}/bans/{ban}` },
      { target: 'missing', url: `${P}/bans/${MISSING_BAN}` },
      { target: 'junk', url: `${P}/bans/not-a-uuid` },
    ],
  },
  ...(['revoke', 'reinstate'] as const).map(
    (verb): RouteDef => ({
      method: 'POST',
      route: `POST ${P}/bans/:id/${verb}`,
      table: verb === 'revoke' ? MANAGE_REVOKE : MANAGE_REINSTATE,
      columns: [
        { target: 'active', url: `${P}/bans/{ban}/${verb}` },
        { target: 'revoked', url: `${P}/bans/{ban}/${verb}` },
        { target: 'missing', url: `${P}/bans/${MISSING_BAN}/${verb}` },
        { target: 'junk', url: `${P}/bans/not-a-uuid/${verb}` },
      ],
    }),
  ),
];

function pick(table: Table, columns: number[]): Table {
  return Object.fromEntries(
    PRINCIPALS.map((p) => {
      const cells = table[p].trim().split(/\s+/);
      return [p, columns.map((i) => cells[i]!).join(' ')];
    }),
  ) as Table;
}

function expectedError(route: RouteDef, principal: PrincipalName, status: number): string | undefined {
  if (status === 401) return UNAUTHORIZED;
  if (status !== 403) return undefined;
  if (principal === 'scopedToken' && route.route !== `POST ${P}/bans`) return SCOPED;
  return ONLY_ADMINS;
}

/** Every cell: 5 routes × 26 principals (POST /bans 2 columns, GET /bans 1, the others 3–4). */
export const banRows: BanMatrixRow[] = ROUTES.flatMap((def) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = def.table[principal].trim().split(/\s+/).map(Number);
    if (statuses.length !== def.columns.length) {
      throw new Error(
        `${def.route} ${principal}: ${statuses.length} columns, expected ${def.columns.length}`,
      );
    }
    return def.columns.map((col, i): BanMatrixRow => {
      const status = statuses[i]!;
      const error = expectedError(def, principal, status);
      return {
        method: def.method,
        route: def.route,
        url: col.url,
        ...(col.body ? { body: col.body(principal) } : {}),
        principal,
        target: col.target,
        expected: error === undefined ? { status } : { status, error },
      };
    });
  }),
);

/** The Fastify route keys the rows cover (for the matrix coverage test). */
export const banRouteKeys: string[] = ROUTES.map((r) => r.route);

export interface BanFixtures {
  /** One ban per `${route}|${target}|${principal}` cell that names `{ban}`. */
  byCell: Map<string, string>;
}

const cellKey = (row: Pick<BanMatrixRow, 'route' | 'target' | 'principal'>) =>
  `${row.route}|${row.target}|${row.principal}`;

/**
 * Creates one ban for every row whose URL names `{ban}`: active for `ban`/`active` targets,
 * revoked for `revoked`, created by the world's global admin, addresses `fixture-<n>@ban.test`.
 */
export async function createBanFixtures(deps: Pick<Deps, 'db'>, world: World): Promise<BanFixtures> {
  const byCell = new Map<string, string>();
  const needing = banRows.filter((r) => r.url.includes('{ban}'));
  await deps.db.transaction(async (tx) => {
    let n = 0;
    for (const row of needing) {
      n += 1;
      const [ban] = await tx
        .insert(bans)
        .values({
          reason: `matrix fixture ${n}`,
          createdByUserId: world.users.admin.id,
          revokedAt: row.target === 'revoked' ? new Date().toISOString() : null,
        })
        .returning({ id: bans.id });
      await tx.insert(banEmails).values({ banId: ban!.id, email: `fixture-${n}@ban.test` });
      byCell.set(cellKey(row), ban!.id);
    }
  });
  return { byCell };
}

/** The concrete request of a row: `{ban}` replaced by its fixture ban. */
export function requestFor(
  row: BanMatrixRow,
  fixtures: BanFixtures,
): { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> } {
  let url = row.url;
  if (url.includes('{ban}')) {
    const id = fixtures.byCell.get(cellKey(row));
    if (!id) throw new Error(`No fixture ban for ${cellKey(row)}`);
    url = url.replace('{ban}', id);
  }
  return { method: row.method, url, ...(row.body ? { payload: row.body } : {}) };
}
