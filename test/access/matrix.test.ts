/**
 * Authorization matrix (quality.md "Authorization matrix"), transcribed from the interface spec
 * ("Authentication", "Errors", the endpoint list) and docs/decisions.md "Status codes and check order" (check order 401 → 403 kind/scope →
 * 404 → 403 reach → 422), §2 (roles and reach), §4 and §7/§9 (`current`). NOT derived from
 * src/access/policy.ts or actions.ts.
 *
 * Every cell: principal × route × target → exact status; `{error}` envelope on every denial (401 body
 * exactly `{"error":"Unauthorized"}`, scoped token exactly the scope message); on 200 the exact key
 * sets of participant payloads per visibility class.
 *
 * Choices where spec and contract are silent (reported to the lead):
 * - public routes (healthz, readyz, openapi.json, docs) ignore any Authorization header: 200 for all;
 * - GET /series/{s} for a user needs a series role on it (event roles alone do not make a series member);
 * - the ban routes by id answer a non-admin 403 before looking the ban up (no 404 oracle);
 * - guardians[].invited_via_email is the guardian's email and is hidden from `limited` like it
 *   (test/support/keys.ts GUARDIAN_PII_KEYS).
 */
import { readdirSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banEmails, bans } from '../../src/db/schema/index.js';
import { registeredRoutes } from '../../src/http/route-table.js';
import { bearer, get, snapshotDb, startTestApp, type TestApp } from '../support/app.js';
import {
  expectNoLeaks,
  expectParticipantShape,
  LOOKUP_KEYS,
  ROSTER_ENTRY_KEYS,
  type VisibilityClass,
} from '../support/keys.js';
import {
  buildWorld,
  PRINCIPALS,
  type PrincipalName,
  type World,
  type WorldRegistration,
} from '../support/world.js';
import { announcementRouteKeys } from './rows/announcements.js';
import { banRouteKeys } from './rows/bans.js';
import { chatBlastRouteKeys } from './rows/chat-blasts.js';
import { checkinRouteKeys } from './rows/checkin.js';
import { emailLogRouteKeys, suppressionRouteKeys } from './rows/email-log.js';
import { emailTemplateRouteKeys } from './rows/email-templates.js';
import { eventSetupRouteKeys, mediaRouteKeys } from './rows/event-setup.js';
import { guardianPortalRouteKeys } from './rows/guardian-portal.js';
import { claimRouteKeys } from './rows/invitation-claim.js';
import { invitationRouteKeys } from './rows/invitations.js';
import { operationsRouteKeys } from './rows/operations.js';
import { organiserRouteKeys } from './rows/organiser.js';
import { outboundWebhookRouteKeys } from './rows/outbound-webhooks.js';
import { privacyRouteKeys } from './rows/privacy.js';
import { registrationRouteKeys } from './rows/registration.js';
import { recordRouteKeys } from './rows/registrations-record.js';
import { retentionRouteKeys } from './rows/retention.js';
import { roomingRouteKeys } from './rows/rooming.js';
import { seriesEventRouteKeys } from './rows/series-events.js';
import { sessionRouteKeys } from './rows/sessions.js';
import { signinRouteKeys } from './rows/signin.js';
import { staffRecordRouteKeys } from './rows/staff-record.js';
import { travelLookupRouteKeys } from './rows/travel-lookups.js';
import { travelNotesRouteKeys } from './rows/travel-notes.js';
// Web pages: rows run by test/web/rows.test.ts.
import { webRouteKeys } from './rows/web.js';
import { webhookRouteKeys } from './rows/webhooks.js';

// ---------------------------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------------------------

/** Event path segments: own event A, sibling B (same series S1), foreign C (series S2), missing X. */
const EVENT_TARGETS = [
  'A:id',
  'A:uuid',
  'A:slug',
  'B:id',
  'B:slug',
  'C:id',
  'C:uuid',
  'X:id',
  'X:uuid',
  'X:slug',
] as const;
type EventTarget = (typeof EVENT_TARGETS)[number];

/** Series path segments: own S1, foreign S2, `current` (series keys only), missing X. Series have no numeric id. */
const SERIES_TARGETS = ['S1:uuid', 'S1:slug', 'S2:uuid', 'S2:slug', 'current', 'X:uuid', 'X:slug'] as const;
type SeriesTarget = (typeof SERIES_TARGETS)[number];

/** Untargeted routes: one column each. */
const PLAIN_ROUTES = ['me', 'events', 'series', 'healthz', 'readyz', 'openapi', 'docs'] as const;
type PlainRoute = (typeof PLAIN_ROUTES)[number];

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';

// ---------------------------------------------------------------------------------------------
// The literal table. One string per principal, one status per column (in the column order above).
// ---------------------------------------------------------------------------------------------

type Row = Record<PrincipalName, string>;

/**
 * GET /events/{e}/participants, /participants/search, /participants/{id}: users with participants
 * access (global admin, series role, event role other than read_only); both key kinds 403 (spec:
 * "Not available to event API keys or series API keys"), before the 404 (kind is checked first).
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const PARTICIPANTS_READ: Row = {
  //                 A:id A:uuid A:slug B:id B:slug C:id C:uuid X:id X:uuid X:slug
  none:             '401  401    401    401  401    401  401    401  401    401',
  garbage:          '401  401    401    401  401    401  401    401  401    401',
  badChecksum:      '401  401    401    401  401    401  401    401  401    401',
  revokedEventKey:  '401  401    401    401  401    401  401    401  401    401',
  expiredMobile:    '401  401    401    401  401    401  401    401  401    401',
  revokedMobile:    '401  401    401    401  401    401  401    401  401    401',
  expiredGlobal:    '401  401    401    401  401    401  401    401  401    401',
  revokedGlobal:    '401  401    401    401  401    401  401    401  401    401',
  demotedGlobal:    '401  401    401    401  401    401  401    401  401    401',
  participant:      '403  403    403    403  403    403  403    404  404    404',
  readOnly:         '403  403    403    403  403    403  403    404  404    404',
  limited:          '200  200    200    403  403    403  403    404  404    404',
  ops:              '200  200    200    403  403    403  403    404  404    404',
  eventAdmin:       '200  200    200    403  403    403  403    404  404    404',
  safeguarding:     '200  200    200    403  403    403  403    404  404    404',
  seriesOwner:      '200  200    200    200  200    403  403    404  404    404',
  seriesOrganizer:  '200  200    200    200  200    403  403    404  404    404',
  admin:            '200  200    200    200  200    200  200    404  404    404',
  globalToken:      '200  200    200    200  200    200  200    404  404    404',
  scopedToken:      '403  403    403    403  403    403  403    403  403    403',
  seriesKeyS1:      '403  403    403    403  403    403  403    403  403    403',
  seriesKeyS2:      '403  403    403    403  403    403  403    403  403    403',
  eventKeyA:        '403  403    403    403  403    403  403    403  403    403',
  eventKeyB:        '403  403    403    403  403    403  403    403  403    403',
  eventKeyC:        '403  403    403    403  403    403  403    403  403    403',
  legacyKeyA:       '403  403    403    403  403    403  403    403  403    403',
};

/**
 * GET /events/{e}/participants/lookup and /roster: event key of that event (incl. legacy), series
 * key of its series, users with participants access.
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const KEY_READ: Row = {
  //                 A:id A:uuid A:slug B:id B:slug C:id C:uuid X:id X:uuid X:slug
  none:             '401  401    401    401  401    401  401    401  401    401',
  garbage:          '401  401    401    401  401    401  401    401  401    401',
  badChecksum:      '401  401    401    401  401    401  401    401  401    401',
  revokedEventKey:  '401  401    401    401  401    401  401    401  401    401',
  expiredMobile:    '401  401    401    401  401    401  401    401  401    401',
  revokedMobile:    '401  401    401    401  401    401  401    401  401    401',
  expiredGlobal:    '401  401    401    401  401    401  401    401  401    401',
  revokedGlobal:    '401  401    401    401  401    401  401    401  401    401',
  demotedGlobal:    '401  401    401    401  401    401  401    401  401    401',
  participant:      '403  403    403    403  403    403  403    404  404    404',
  readOnly:         '403  403    403    403  403    403  403    404  404    404',
  limited:          '200  200    200    403  403    403  403    404  404    404',
  ops:              '200  200    200    403  403    403  403    404  404    404',
  eventAdmin:       '200  200    200    403  403    403  403    404  404    404',
  safeguarding:     '200  200    200    403  403    403  403    404  404    404',
  seriesOwner:      '200  200    200    200  200    403  403    404  404    404',
  seriesOrganizer:  '200  200    200    200  200    403  403    404  404    404',
  admin:            '200  200    200    200  200    200  200    404  404    404',
  globalToken:      '200  200    200    200  200    200  200    404  404    404',
  scopedToken:      '403  403    403    403  403    403  403    403  403    403',
  seriesKeyS1:      '200  200    200    200  200    403  403    404  404    404',
  seriesKeyS2:      '403  403    403    403  403    200  200    404  404    404',
  eventKeyA:        '200  200    200    403  403    403  403    404  404    404',
  eventKeyB:        '403  403    403    200  200    403  403    404  404    404',
  eventKeyC:        '403  403    403    403  403    200  200    404  404    404',
  legacyKeyA:       '200  200    200    403  403    403  403    404  404    404',
};

/**
 * GET /series/{s} and GET /series/{s}/events: series key on its own series only (foreign 403),
 * users with a series role (global admin: any); event keys 403 (kind, before 404); `current` =
 * the calling series key's series, any other kind that may use the endpoint 400 (docs/decisions.md "Credentials and roles").
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const SERIES_READ: Row = {
  //                 S1:uuid S1:slug S2:uuid S2:slug current X:uuid X:slug
  none:             '401     401     401     401     401     401    401',
  garbage:          '401     401     401     401     401     401    401',
  badChecksum:      '401     401     401     401     401     401    401',
  revokedEventKey:  '401     401     401     401     401     401    401',
  expiredMobile:    '401     401     401     401     401     401    401',
  revokedMobile:    '401     401     401     401     401     401    401',
  expiredGlobal:    '401     401     401     401     401     401    401',
  revokedGlobal:    '401     401     401     401     401     401    401',
  demotedGlobal:    '401     401     401     401     401     401    401',
  participant:      '403     403     403     403     400     404    404',
  readOnly:         '403     403     403     403     400     404    404',
  limited:          '403     403     403     403     400     404    404',
  ops:              '403     403     403     403     400     404    404',
  eventAdmin:       '403     403     403     403     400     404    404',
  safeguarding:     '403     403     403     403     400     404    404',
  seriesOwner:      '200     200     403     403     400     404    404',
  seriesOrganizer:  '200     200     403     403     400     404    404',
  admin:            '200     200     200     200     400     404    404',
  globalToken:      '200     200     200     200     400     404    404',
  scopedToken:      '403     403     403     403     403     403    403',
  seriesKeyS1:      '200     200     403     403     200     404    404',
  seriesKeyS2:      '403     403     200     200     200     404    404',
  eventKeyA:        '403     403     403     403     403     403    403',
  eventKeyB:        '403     403     403     403     403     403    403',
  eventKeyC:        '403     403     403     403     403     403    403',
  legacyKeyA:       '403     403     403     403     403     403    403',
};

/**
 * Untargeted routes. /me and /events: users only (keys 403). GET /series: users and series keys
 * (event keys 403). healthz/readyz/openapi.json/docs: public.
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const PLAIN: Row = {
  //                 me   events series healthz readyz openapi docs
  none:             '401  401    401    200     200    200     200',
  garbage:          '401  401    401    200     200    200     200',
  badChecksum:      '401  401    401    200     200    200     200',
  revokedEventKey:  '401  401    401    200     200    200     200',
  expiredMobile:    '401  401    401    200     200    200     200',
  revokedMobile:    '401  401    401    200     200    200     200',
  expiredGlobal:    '401  401    401    200     200    200     200',
  revokedGlobal:    '401  401    401    200     200    200     200',
  demotedGlobal:    '401  401    401    200     200    200     200',
  participant:      '200  200    200    200     200    200     200',
  readOnly:         '200  200    200    200     200    200     200',
  limited:          '200  200    200    200     200    200     200',
  ops:              '200  200    200    200     200    200     200',
  eventAdmin:       '200  200    200    200     200    200     200',
  safeguarding:     '200  200    200    200     200    200     200',
  seriesOwner:      '200  200    200    200     200    200     200',
  seriesOrganizer:  '200  200    200    200     200    200     200',
  admin:            '200  200    200    200     200    200     200',
  globalToken:      '200  200    200    200     200    200     200',
  scopedToken:      '403  403    403    200     200    200     200',
  seriesKeyS1:      '403  403    200    200     200    200     200',
  seriesKeyS2:      '403  403    200    200     200    200     200',
  eventKeyA:        '403  403    403    200     200    200     200',
  eventKeyB:        '403  403    403    200     200    200     200',
  eventKeyC:        '403  403    403    200     200    200     200',
  legacyKeyA:       '403  403    403    200     200    200     200',
};

/**
 * POST /bans and GET /bans (spec "Bans"; docs/decisions.md "Series, events and bans"): global admins only — a global admin's mobile
 * token or a global API token; POST /bans is the ONLY endpoint a `bans:write`-scoped token reaches
 * (so GET /bans answers it 403 with the scope message). Everyone else, keys included, 403
 * `Only global admins can manage the ban list`. Each 201 cell bans a fresh address.
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const BANS_PLAIN: Row = {
  //                 POST GET
  none:             '401  401',
  garbage:          '401  401',
  badChecksum:      '401  401',
  revokedEventKey:  '401  401',
  expiredMobile:    '401  401',
  revokedMobile:    '401  401',
  expiredGlobal:    '401  401',
  revokedGlobal:    '401  401',
  demotedGlobal:    '401  401',
  participant:      '403  403',
  readOnly:         '403  403',
  limited:          '403  403',
  ops:              '403  403',
  eventAdmin:       '403  403',
  safeguarding:     '403  403',
  seriesOwner:      '403  403',
  seriesOrganizer:  '403  403',
  admin:            '201  200',
  globalToken:      '201  200',
  scopedToken:      '201  403',
  seriesKeyS1:      '403  403',
  seriesKeyS2:      '403  403',
  eventKeyA:        '403  403',
  eventKeyB:        '403  403',
  eventKeyC:        '403  403',
  legacyKeyA:       '403  403',
};

/**
 * GET /bans/{id}, POST /bans/{id}/revoke, POST /bans/{id}/reinstate: global admins only. Being a
 * global admin is not about the target, so a non-admin gets 403 before any lookup (no 404 oracle).
 * Targets: an existing ban (for revoke: an active one; for reinstate: a revoked one — one per
 * principal so cells are independent), a missing UUID, a non-UUID id.
 */
// biome-ignore format: the matrix is a hand-aligned literal table
const BAN_BY_ID: Row = {
  //                 ban  X:uuid X:bad
  none:             '401  401    401',
  garbage:          '401  401    401',
  badChecksum:      '401  401    401',
  revokedEventKey:  '401  401    401',
  expiredMobile:    '401  401    401',
  revokedMobile:    '401  401    401',
  expiredGlobal:    '401  401    401',
  revokedGlobal:    '401  401    401',
  demotedGlobal:    '401  401    401',
  participant:      '403  403    403',
  readOnly:         '403  403    403',
  limited:          '403  403    403',
  ops:              '403  403    403',
  eventAdmin:       '403  403    403',
  safeguarding:     '403  403    403',
  seriesOwner:      '403  403    403',
  seriesOrganizer:  '403  403    403',
  admin:            '200  404    404',
  globalToken:      '200  404    404',
  scopedToken:      '403  403    403',
  seriesKeyS1:      '403  403    403',
  seriesKeyS2:      '403  403    403',
  eventKeyA:        '403  403    403',
  eventKeyB:        '403  403    403',
  eventKeyC:        '403  403    403',
  legacyKeyA:       '403  403    403',
};

const BAN_TARGETS = ['ban', 'X:uuid', 'X:bad'] as const;
const BAN_DENIED = 'Only global admins can manage the ban list';

/** Visibility class of a user principal allowed to read participants (docs/decisions.md "Credentials and roles"). */
const VISIBILITY: Partial<Record<PrincipalName, VisibilityClass>> = {
  admin: 'sensitive',
  globalToken: 'sensitive',
  safeguarding: 'sensitive',
  ops: 'pii',
  eventAdmin: 'pii',
  seriesOwner: 'pii',
  seriesOrganizer: 'pii',
  limited: 'limited',
};

// ---------------------------------------------------------------------------------------------
// Routes: Fastify route key → how to build a request for a target, and which table row set applies.
// ---------------------------------------------------------------------------------------------

type EventRouteName = 'list' | 'search' | 'detail' | 'lookup' | 'roster';
type SeriesRouteName = 'series.read' | 'series.events';

interface EventRoute {
  kind: 'event';
  name: EventRouteName;
  route: string;
  table: Row;
  url: (w: World, e: string, reg: WorldRegistration) => string;
}
interface SeriesRoute {
  kind: 'series';
  name: SeriesRouteName;
  route: string;
  table: Row;
  url: (s: string) => string;
}
interface PlainRouteDef {
  kind: 'plain';
  name: PlainRoute;
  route: string;
  column: number;
  url: string;
}

const P = '/api/v1';
const EVENT_ROUTES: EventRoute[] = [
  {
    kind: 'event',
    name: 'list',
    route: `GET ${P}/events/:event_id/participants`,
    table: PARTICIPANTS_READ,
    url: (_w, e) => `${P}/events/${e}/participants`,
  },
  {
    kind: 'event',
    name: 'search',
    route: `GET ${P}/events/:event_id/participants/search`,
    table: PARTICIPANTS_READ,
    url: (_w, e) => `${P}/events/${e}/participants/search?q=example`,
  },
  {
    kind: 'event',
    name: 'detail',
    route: `GET ${P}/events/:event_id/participants/:id`,
    table: PARTICIPANTS_READ,
    url: (_w, e, r) => `${P}/events/${e}/participants/${r.id}`,
  },
  {
    kind: 'event',
    name: 'lookup',
    route: `GET ${P}/events/:event_id/participants/lookup`,
    table: KEY_READ,
    url: (_w, e, r) => `${P}/events/${e}/participants/lookup?email=${encodeURIComponent(r.email)}`,
  },
  {
    kind: 'event',
    name: 'roster',
    route: `GET ${P}/events/:event_id/participants/roster`,
    table: KEY_READ,
    url: (_w, e) => `${P}/events/${e}/participants/roster`,
  },
];
const SERIES_ROUTES: SeriesRoute[] = [
  {
    kind: 'series',
    name: 'series.read',
    route: `GET ${P}/series/:series_id`,
    table: SERIES_READ,
    url: (s) => `${P}/series/${s}`,
  },
  {
    kind: 'series',
    name: 'series.events',
    route: `GET ${P}/series/:series_id/events`,
    table: SERIES_READ,
    url: (s) => `${P}/series/${s}/events`,
  },
];
const PLAIN_ROUTE_DEFS: PlainRouteDef[] = [
  { kind: 'plain', name: 'me', route: `GET ${P}/me`, column: 0, url: `${P}/me` },
  { kind: 'plain', name: 'events', route: `GET ${P}/events`, column: 1, url: `${P}/events` },
  { kind: 'plain', name: 'series', route: `GET ${P}/series`, column: 2, url: `${P}/series` },
  { kind: 'plain', name: 'healthz', route: `GET ${P}/healthz`, column: 3, url: `${P}/healthz` },
  { kind: 'plain', name: 'readyz', route: `GET ${P}/readyz`, column: 4, url: `${P}/readyz` },
  { kind: 'plain', name: 'openapi', route: `GET ${P}/openapi.json`, column: 5, url: `${P}/openapi.json` },
  { kind: 'plain', name: 'docs', route: `GET ${P}/docs`, column: 6, url: `${P}/docs` },
];

type BanRouteName = 'bans.create' | 'bans.list' | 'bans.read' | 'bans.revoke' | 'bans.reinstate';
interface BanRoute {
  name: BanRouteName;
  route: string;
  /** Column in BANS_PLAIN, or undefined for the by-id routes (BAN_BY_ID). */
  column?: number;
  request: (
    principal: PrincipalName,
    target: string,
  ) => { url: string; method: 'GET' | 'POST'; payload?: unknown };
}

/** Ban ids created in beforeAll: one shared ban to read, one active and one revoked ban per principal. */
const banIds = { shared: '', active: {} as Record<string, string>, revoked: {} as Record<string, string> };
const banSegment = (target: string, id: string) =>
  target === 'ban' ? id : target === 'X:uuid' ? MISSING_UUID : 'not-a-uuid';

const BAN_ROUTES: BanRoute[] = [
  {
    name: 'bans.create',
    route: `POST ${P}/bans`,
    column: 0,
    request: (principal) => ({
      method: 'POST',
      url: `${P}/bans`,
      payload: { emails: [`matrix-${principal.toLowerCase()}@ban.test`], reason: 'authorization matrix' },
    }),
  },
  {
    name: 'bans.list',
    route: `GET ${P}/bans`,
    column: 1,
    request: () => ({ method: 'GET', url: `${P}/bans` }),
  },
  {
    name: 'bans.read',
    route: `GET ${P}/bans/:id`,
    request: (_p, target) => ({ method: 'GET', url: `${P}/bans/${banSegment(target, banIds.shared)}` }),
  },
  {
    name: 'bans.revoke',
    route: `POST ${P}/bans/:id/revoke`,
    request: (p, target) => ({
      method: 'POST',
      url: `${P}/bans/${banSegment(target, banIds.active[p]!)}/revoke`,
    }),
  },
  {
    name: 'bans.reinstate',
    route: `POST ${P}/bans/:id/reinstate`,
    request: (p, target) => ({
      method: 'POST',
      url: `${P}/bans/${banSegment(target, banIds.revoked[p]!)}/reinstate`,
    }),
  },
];

function statuses(row: string): number[] {
  return row.trim().split(/\s+/).map(Number);
}

interface Cell {
  route: string;
  routeName: string;
  principal: PrincipalName;
  target: string;
  status: number;
  request: (w: World) => {
    url: string;
    method?: 'GET' | 'POST';
    payload?: unknown;
    reg?: WorldRegistration;
    eventKey?: 'A' | 'B' | 'C' | 'X';
  };
}

function eventCells(def: EventRoute): Cell[] {
  return PRINCIPALS.flatMap((principal) => {
    const row = statuses(def.table[principal]);
    if (row.length !== EVENT_TARGETS.length)
      throw new Error(`${def.route} ${principal}: ${row.length} columns`);
    return EVENT_TARGETS.map((target, i) => ({
      route: def.route,
      routeName: def.name,
      principal,
      target,
      status: row[i]!,
      request: (w: World) => {
        const { segment, eventKey, reg } = resolveEventTarget(w, target);
        return { url: def.url(w, segment, reg), reg, eventKey };
      },
    }));
  });
}

function seriesCells(def: SeriesRoute): Cell[] {
  return PRINCIPALS.flatMap((principal) => {
    const row = statuses(def.table[principal]);
    if (row.length !== SERIES_TARGETS.length)
      throw new Error(`${def.route} ${principal}: ${row.length} columns`);
    return SERIES_TARGETS.map((target, i) => ({
      route: def.route,
      routeName: def.name,
      principal,
      target,
      status: row[i]!,
      request: (w: World) => ({ url: def.url(resolveSeriesTarget(w, target)) }),
    }));
  });
}

function plainCells(def: PlainRouteDef): Cell[] {
  return PRINCIPALS.map((principal) => ({
    route: def.route,
    routeName: def.name,
    principal,
    target: '-',
    status: statuses(PLAIN[principal])[def.column]!,
    request: () => ({ url: def.url }),
  }));
}

function resolveEventTarget(w: World, target: EventTarget) {
  const [name, form] = target.split(':') as ['A' | 'B' | 'C' | 'X', 'id' | 'uuid' | 'slug'];
  if (name === 'X') {
    const segment = form === 'id' ? '999999' : form === 'uuid' ? MISSING_UUID : 'no-such-event';
    return { segment, eventKey: name, reg: w.regs.adultA };
  }
  const event = w.events[name];
  const reg = name === 'A' ? w.regs.adultA : name === 'B' ? w.regs.regB : w.regs.regC;
  const segment = form === 'id' ? String(event.id) : form === 'uuid' ? event.uuid : event.slug;
  return { segment, eventKey: name, reg };
}

function resolveSeriesTarget(w: World, target: SeriesTarget): string {
  if (target === 'current') return 'current';
  const [name, form] = target.split(':') as ['S1' | 'S2' | 'X', 'uuid' | 'slug'];
  if (name === 'X') return form === 'uuid' ? MISSING_UUID : 'no-such-series';
  return form === 'uuid' ? w.series[name].id : w.series[name].slug;
}

function banCells(def: BanRoute): Cell[] {
  return PRINCIPALS.flatMap((principal) => {
    if (def.column !== undefined) {
      return [
        {
          route: def.route,
          routeName: def.name,
          principal,
          target: '-',
          status: statuses(BANS_PLAIN[principal])[def.column]!,
          request: () => def.request(principal, '-'),
        },
      ];
    }
    const row = statuses(BAN_BY_ID[principal]);
    if (row.length !== BAN_TARGETS.length)
      throw new Error(`${def.route} ${principal}: ${row.length} columns`);
    return BAN_TARGETS.map((target, i) => ({
      route: def.route,
      routeName: def.name,
      principal,
      target,
      status: row[i]!,
      request: () => def.request(principal, target),
    }));
  });
}

const ALL_CELLS: Cell[] = [
  ...EVENT_ROUTES.flatMap(eventCells),
  ...SERIES_ROUTES.flatMap(seriesCells),
  ...PLAIN_ROUTE_DEFS.flatMap(plainCells),
  ...BAN_ROUTES.flatMap(banCells),
];
const TABLE_ROUTES = new Set(
  [...EVENT_ROUTES, ...SERIES_ROUTES, ...PLAIN_ROUTE_DEFS, ...BAN_ROUTES].map((r) => r.route),
);
/** Staff pages: every file of test/access/rows/staff/ (one per area) lists its pages. */
const STAFF_ROWS = new URL('./rows/staff/', import.meta.url);
const staffPageRoutes: string[] = (
  await Promise.all(
    readdirSync(STAFF_ROWS)
      .filter((f) => f.endsWith('.ts') && f !== 'types.ts')
      .map(async (f) => (await import(new URL(f, STAFF_ROWS).href)).pages as { route: string }[]),
  )
)
  .flat()
  .map((p) => p.route);

/**
 * Routes whose rows live in test/access/rows/*.ts and are executed by their own runners
 * (test/bans/rows.test.ts, test/checkin/rows.test.ts, test/sessions/, test/signin/): they count for
 * coverage here.
 */
const ROW_FILE_ROUTES = new Set([
  ...claimRouteKeys, // POST /invitations/claim (test/registration/claim.test.ts)
  ...banRouteKeys,
  ...checkinRouteKeys,
  ...sessionRouteKeys,
  ...signinRouteKeys,
  ...travelNotesRouteKeys,
  ...travelLookupRouteKeys, // airport and flight lookups, session cookie (test/travel/lookups-rows.test.ts)
  ...recordRouteKeys,
  ...staffRecordRouteKeys, // staff edits (test/registration/staff-record-rows.test.ts)
  ...webRouteKeys,
  ...staffPageRoutes, // staff pages (test/access/rows/staff/*.ts, run by test/web/staff-rows.test.ts)
  ...guardianPortalRouteKeys,
  ...seriesEventRouteKeys, // series event API (test/events/rows.test.ts)
  ...chatBlastRouteKeys, // chat blasts
  // Inbound receivers (docs/decisions.md "Messaging"), run by test/webhooks/rows.test.ts.
  ...webhookRouteKeys,
  ...emailLogRouteKeys,
  ...suppressionRouteKeys,
  ...emailTemplateRouteKeys, // email wording per event (test/email/rows.test.ts)
  ...registrationRouteKeys,
  ...invitationRouteKeys, // pending invitations, guardian resend (test/registration/invitations-rows.test.ts)
  ...organiserRouteKeys, // exports, audit trail, team, API keys, groups (test/organiser/rows.test.ts)
  ...eventSetupRouteKeys, // consent documents, logo and banner (test/setup/rows.test.ts)
  ...mediaRouteKeys, // public uploaded images (test/setup/images.test.ts)
  ...announcementRouteKeys, // email announcements (test/organiser/announcements-rows.test.ts)
  ...operationsRouteKeys, // GET /metrics (test/ops/rows.test.ts)
  ...outboundWebhookRouteKeys, // outbound webhooks (test/outbound-webhooks/rows.test.ts)
  ...roomingRouteKeys, // rooms, rules, plan, apply (test/rooming/rows.test.ts)
  ...privacyRouteKeys, // subject access and erasure (test/privacy/rows.test.ts)
  ...retentionRouteKeys, // retention policies (test/privacy/retention-rows.test.ts)
]);

// ---------------------------------------------------------------------------------------------

let t: TestApp;
let app: FastifyInstance;
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  app = t.app;
  world = await buildWorld(t.deps);
  await t.deps.db.transaction(async (tx) => {
    const ban = async (email: string, revoked: boolean) => {
      const [row] = await tx
        .insert(bans)
        .values({
          reason: 'matrix fixture',
          createdByUserId: world.users.admin.id,
          revokedAt: revoked ? '2026-01-01T00:00:00Z' : null,
        })
        .returning({ id: bans.id });
      await tx.insert(banEmails).values({ banId: row!.id, email });
      return row!.id;
    };
    banIds.shared = await ban('shared@ban.test', false);
    for (const p of PRINCIPALS) {
      banIds.active[p] = await ban(`active-${p.toLowerCase()}@ban.test`, false);
      banIds.revoked[p] = await ban(`revoked-${p.toLowerCase()}@ban.test`, true);
    }
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function json(res: LightMyRequestResponse): Record<string, unknown> {
  return res.json() as Record<string, unknown>;
}

function expectDenialEnvelope(cell: Cell, res: LightMyRequestResponse): void {
  const body = json(res);
  const label = `${cell.principal} ${cell.route} ${cell.target}`;
  if (cell.status === 401) {
    expect(body, label).toEqual({ error: 'Unauthorized' });
  } else if (cell.principal === 'scopedToken' && cell.status === 403) {
    expect(body, label).toEqual({ error: 'This token is limited to: bans:write' });
  } else if (cell.routeName.startsWith('bans.') && cell.status === 403) {
    expect(body, label).toEqual({ error: BAN_DENIED });
  } else {
    expect(Object.keys(body), label).toEqual(['error']);
    expect(typeof body.error, label).toBe('string');
    expect((body.error as string).length, label).toBeGreaterThan(0);
  }
}

/** Registrations of an event, by participant_event_id. */
function regsOf(eventKey: 'A' | 'B' | 'C'): Map<number, WorldRegistration> {
  const all = Object.values(world.regs).filter((r) => r.eventId === world.events[eventKey].id);
  return new Map(all.map((r) => [r.id, r]));
}

function expectSuccessPayload(
  cell: Cell,
  res: LightMyRequestResponse,
  eventKey?: 'A' | 'B' | 'C' | 'X',
  reg?: WorldRegistration,
) {
  const label = `${cell.principal} ${cell.route} ${cell.target}`;
  if (cell.routeName.startsWith('bans.')) {
    const body = json(res);
    if (cell.routeName === 'bans.list') expect(Array.isArray(body.bans), label).toBe(true);
    else expect((body.ban as { id?: unknown } | undefined)?.id, label).toEqual(expect.any(String));
    if (cell.routeName === 'bans.revoke') expect((body.ban as { active: boolean }).active, label).toBe(false);
    if (cell.routeName === 'bans.reinstate')
      expect((body.ban as { revoked_at: unknown }).revoked_at, label).toBeNull();
    return;
  }
  if (eventKey === undefined || eventKey === 'X') {
    // Untargeted and series routes: a JSON body for the API routes (docs is HTML).
    if (cell.routeName !== 'docs') expect(res.headers['content-type'], label).toMatch(/^application\/json/);
    return;
  }
  const body = json(res);
  const cls = VISIBILITY[cell.principal];
  if (cls && ['list', 'search', 'detail'].includes(cell.routeName)) expectNoLeaks(res.body, cls, label);
  const regs = regsOf(eventKey);
  switch (cell.routeName) {
    case 'list': {
      expect(Object.keys(body).sort(), label).toEqual(['participants', 'synced_at']);
      const list = body.participants as Record<string, unknown>[];
      expect(list.map((p) => p.participant_event_id).sort(), label).toEqual([...regs.keys()].sort());
      for (const p of list)
        expectParticipantShape(p, cls!, regs.get(p.participant_event_id as number)!, false, label);
      break;
    }
    case 'search': {
      expect(Object.keys(body), label).toEqual(['results']);
      const list = body.results as Record<string, unknown>[];
      expect(list.length, label).toBeGreaterThan(0);
      for (const p of list) {
        const r = regs.get(p.participant_event_id as number);
        expect(r, `${label}: result from another event`).toBeDefined();
        expectParticipantShape(p, cls!, r!, false, label);
      }
      break;
    }
    case 'detail': {
      expect(Object.keys(body), label).toEqual(['participant']);
      const p = body.participant as Record<string, unknown>;
      expect(p.participant_event_id, label).toBe(reg!.id);
      expectParticipantShape(p, cls!, reg!, true, label);
      break;
    }
    case 'lookup': {
      expect(Object.keys(body).sort(), label).toEqual([...LOOKUP_KEYS].sort());
      expect(body, label).toEqual({
        email: reg!.email,
        registered: true,
        participant_id: reg!.personId,
        status: reg!.status,
      });
      break;
    }
    case 'roster': {
      expect(Object.keys(body).sort(), label).toEqual(['participants', 'synced_at']);
      for (const e of body.participants as Record<string, unknown>[]) {
        expect(Object.keys(e).sort(), label).toEqual([...ROSTER_ENTRY_KEYS].sort());
      }
      break;
    }
  }
}

async function runCell(cell: Cell): Promise<LightMyRequestResponse> {
  const { url, method = 'GET', payload } = cell.request(world);
  if (method === 'GET') return get(app, url, world.secrets[cell.principal]);
  return app.inject({
    method,
    url,
    headers: bearer(world.secrets[cell.principal]),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

const cellName = (c: Cell) => `${c.principal.padEnd(16)} ${c.target.padEnd(8)} → ${c.status}`;

/** Runs one cell and checks its status and body (the denial envelope or the success payload). */
async function checkCell(cell: Cell): Promise<void> {
  const { url, method = 'GET', eventKey, reg } = cell.request(world);
  const res = await runCell(cell);
  expect(res.statusCode, `${cell.principal} ${method} ${url}: ${res.body.slice(0, 300)}`).toBe(cell.status);
  if (cell.status >= 400) expectDenialEnvelope(cell, res);
  else if (cell.status === 200) expectSuccessPayload(cell, res, eventKey, reg);
}

const DENIED_CELLS = ALL_CELLS.filter((c) => c.status >= 400);

describe('authorization matrix', () => {
  it('has the expected number of cells', () => {
    // 5 event routes × 26 principals × 10 targets + 2 series routes × 26 × 7 + 7 plain routes × 26
    // + 2 untargeted ban routes × 26 + 3 ban-by-id routes × 26 × 3.
    expect(ALL_CELLS).toHaveLength(5 * 26 * 10 + 2 * 26 * 7 + 7 * 26 + 2 * 26 + 3 * 26 * 3);
  });

  /**
   * Every denied cell runs once, all of them before any allowed one (an allowed ban revoke or
   * create changes the database): one snapshot before the first and one after the last prove that
   * none of them changed anything. A denied status depends on the principal and the target, never
   * on what an allowed cell did (the ban routes refuse a non-admin before looking the ban up).
   */
  describe('denied cells, which change nothing', () => {
    let before: Awaited<ReturnType<typeof snapshotDb>>;
    let ran = 0;
    beforeAll(async () => {
      before = await snapshotDb(t.deps);
    });

    const routes = [...TABLE_ROUTES].filter((route) => DENIED_CELLS.some((c) => c.route === route));
    describe.each(routes)('%s', (route) => {
      const cells = DENIED_CELLS.filter((c) => c.route === route);
      it.each(cells.map((c) => [cellName(c), c] as const))('%s', async (_name, cell) => {
        ran++;
        await checkCell(cell);
      });
    });

    it('the database is byte-for-byte the same after every denied cell', async () => {
      expect(DENIED_CELLS.length).toBeGreaterThan(800);
      expect(ran, 'every denied cell ran').toBe(DENIED_CELLS.length);
      expect(await snapshotDb(t.deps)).toEqual(before);
    });
  });

  const allowedRoutes = [...TABLE_ROUTES].filter((route) =>
    ALL_CELLS.some((c) => c.route === route && c.status < 400),
  );
  describe.each(allowedRoutes)('%s', (route) => {
    const cells = ALL_CELLS.filter((c) => c.route === route && c.status < 400);
    it.each(cells.map((c) => [cellName(c), c] as const))('%s', async (_name, cell) => {
      await checkCell(cell);
    });
  });
});

describe('coverage', () => {
  const normalise = (route: string) => route.replace(/:[^/]+/g, ':param');

  it('every registered route has a row in the matrix (docs assets excluded)', () => {
    const table = new Set([...TABLE_ROUTES, ...ROW_FILE_ROUTES].map(normalise));
    // Staff pages (/staff…) have their own matrix, which checks it lists every one of them:
    // test/access/rows/staff/ run by test/web/staff-rows.test.ts.
    const missing = registeredRoutes(app)
      .filter((r) => !r.url.startsWith('/api/v1/docs/') && r.url !== '/staff' && !r.url.startsWith('/staff/'))
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !table.has(normalise(key)));
    expect(missing, 'routes without a row in test/access/matrix.test.ts').toEqual([]);
  });

  it('every row of the matrix is a registered route', () => {
    const registered = new Set(registeredRoutes(app).map((r) => normalise(`${r.method} ${r.url}`)));
    const stale = [...TABLE_ROUTES, ...ROW_FILE_ROUTES].filter((route) => !registered.has(normalise(route)));
    expect(stale).toEqual([]);
  });
});

describe('the denied-cell snapshot', () => {
  it('the snapshot is not vacuous: it sees a one-row change', async () => {
    const before = await snapshotDb(t.deps);
    await t.deps.database.pool.query(`INSERT INTO audit_log (action) VALUES ('test.snapshot_probe')`);
    const after = await snapshotDb(t.deps);
    expect(after.audit_log).not.toEqual(before.audit_log);
    expect({ ...after, audit_log: null }).toEqual({ ...before, audit_log: null });
  });
});

describe('visibility of a minor with guardians (detail and list)', () => {
  const cases: [PrincipalName, VisibilityClass][] = [
    ['admin', 'sensitive'],
    ['globalToken', 'sensitive'],
    ['safeguarding', 'sensitive'],
    ['eventAdmin', 'pii'],
    ['ops', 'pii'],
    ['seriesOwner', 'pii'],
    ['seriesOrganizer', 'pii'],
    ['limited', 'limited'],
  ];
  it.each(cases)('%s sees the %s shape', async (principal, cls) => {
    const reg = world.regs.minorA;
    const res = await get(
      app,
      `${P}/events/${world.events.A.id}/participants/${reg.id}`,
      world.secrets[principal],
    );
    expect(res.statusCode).toBe(200);
    const p = json(res).participant as Record<string, unknown>;
    expectParticipantShape(p, cls, reg, true, principal);
    expectNoLeaks(res.body, cls, principal);
    expect((p.guardians as unknown[]).length).toBe(2);
    if (cls === 'sensitive') {
      expect(p.parent_guardian_name).toBe('Gina Guardian');
      expect(p.parent_guardian_phone).toBe('+447700900100');
      expect(p.parent_guardian_email).toBe('gina.guardian@example.com');
      // Guardians' contacts plus the registration's own, by priority (docs/decisions.md "Participants API").
      expect((p.emergency_contacts as { name: string }[]).map((c) => c.name)).toEqual([
        'Uncle Minor',
        'Grandma Minor',
      ]);
    }
  });
});
