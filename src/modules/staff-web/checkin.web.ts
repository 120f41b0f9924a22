/**
 * The check-in desk, `/staff/events/{event_id}/checkin`:
 * - GET …/checkin[?context=<id>]: the page (action `scans.write`: writes at the door, any event
 *   access except `read_only`, docs/decisions.md "Credentials and roles"; a `read_only` user gets the 403 page). Pick a scan
 *   context, search, scan a QR code, check in with one tap, the door's verdict as a coloured panel
 *   (docs/checkin.md "The desk"), "Let in anyway" for roles that may override, undo, the live feed.
 *   Its scripts (web/public/js/desk*.js) do the work; the page carries their settings as data
 *   attributes: each context's refuse list and presence tracking (the offline verdict), whether
 *   the caller may override, the event's time zone. No participant data is in the markup.
 * - The page's data routes (live stream, search, roster, scans, undo): checkin-data.web.ts; the roll
 *   call: roll-call.web.ts; the scan-context settings (refuse lists, presence): scan-contexts.web.ts.
 * - The QR decoder (zxing-wasm's reader build and its WebAssembly file) from node_modules, at
 *   /assets/vendor/: no CDN (the CSP allows scripts and fetches from this origin only).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mayOverrideVerdict } from '../../access/policy.js';
import { isUserPrincipal } from '../../access/principal.js';
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { staffText } from '../../lib/i18n/staff.js';
import { listScanContexts } from '../checkin/contexts.js';
import { ATTENTION_MESSAGES } from '../checkin/verdict.js';
import { pageResponses } from '../web/web.schemas.js';
import { DeskParams, DeskQuery } from './checkin.schemas.js';
import { checkinDataRoutes } from './checkin-data.web.js';
import { eventNav, may } from './nav.js';
import { rollCallPage } from './roll-call.web.js';
import { runSheetPage } from './run-sheet.web.js';
import { scanContextPages } from './scan-contexts.web.js';

const require = createRequire(import.meta.url);
// The package exports its .wasm files; its browser (IIFE) build sits beside them in dist/.
const WASM_FILE = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
const VENDOR = {
  'zxing-reader.js': {
    type: 'text/javascript; charset=utf-8',
    file: WASM_FILE.replace(/reader\/zxing_reader\.wasm$/, 'iife/reader/index.js'),
  },
  'zxing_reader.wasm': { type: 'application/wasm', file: WASM_FILE },
} as const;
const VENDOR_BYTES = new Map(Object.entries(VENDOR).map(([name, v]) => [name, readFileSync(v.file)]));

const PAGE = { action: 'scans.write', credential: 'session_cookie' } as const;

export function checkinPages(web: Api, deps: Deps): void {
  for (const [name, { type }] of Object.entries(VENDOR)) {
    web.get(
      `/assets/vendor/${name}`,
      { config: { public: 'none' }, schema: { hide: true } },
      // Public library files (no personal data): cached for a day, not fetched on every desk load.
      async (_r, reply) =>
        reply.type(type).header('Cache-Control', 'public, max-age=86400').send(VENDOR_BYTES.get(name)),
    );
  }

  web.get(
    '/staff/events/:event_id/checkin',
    {
      config: PAGE,
      schema: { hide: true, params: DeskParams, querystring: DeskQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { event, principal } = ctx.access;
      const { scan_contexts: contexts } = await listScanContexts(ctx);
      const wanted = Number(request.query.context);
      const selected =
        contexts.find((c) => c.id === wanted) ?? contexts.find((c) => c.checks_in) ?? contexts[0] ?? null;
      return reply.page(200, 'staff/checkin', {
        title: staffText('checkin.title', { name: event.name }),
        event,
        nav: eventNav(ctx.access, event.id, '/checkin'),
        contexts,
        selected,
        // Offline search needs the participant list: cached only for callers who may list it.
        canCache: may(ctx.access, 'participants.list'),
        userId: isUserPrincipal(principal) ? principal.user.id : 0,
        mayOverride: mayOverrideVerdict(principal, ctx.access.roles),
        compactNav: true,
        messages: ATTENTION_MESSAGES, // the offline verdict's words, the same as the server's
      });
    },
  );

  checkinDataRoutes(web, deps);
  rollCallPage(web, deps);
  runSheetPage(web, deps);
  scanContextPages(web, deps);
}
