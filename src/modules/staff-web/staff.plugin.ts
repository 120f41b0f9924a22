/**
 * The staff dashboard's pages (issue "Staff dashboard"): server-rendered HTML under `/staff`, over
 * the same services and the same gate as the API. One encapsulated scope inside the web pages'
 * scope (modules/web/web.plugin.ts: cookies, CSRF, eta, the error page), which adds:
 * - `Cache-Control: no-store` on every answer (the pages show personal data),
 * - a Content-Security-Policy that allows scripts from this origin only (htmx, the desk's scripts)
 *   and WebAssembly compilation (the desk's QR decoder); still no inline script or handler,
 * - the scripts themselves: `/assets/htmx.min.js` (htmx.org from node_modules) and
 *   `/assets/js/<name>.js` (web/public/js).
 * Each area registers its pages from its own file (`<area>.web.ts`); every page declares
 * `config: { action, credential: 'session_cookie' }`, so a page answers exactly what the matching
 * API route would (403 page for a role without access, 302 to /signin without a session).
 * Pinned by test/web/staff-rows.test.ts (the staff pages' authorization matrix).
 */
import type { Deps } from '../../deps.js';
import type { Api } from '../../http/typed.js';
import { PAGE_CSP } from '../web/paths.js';
import { staffAssets } from './assets.js';
import { homePages } from './home.web.js';
import { setupPages } from './setup.web.js';
import { setupContentPages } from './setup-content.web.js';

/** The staff pages' CSP: the web pages' policy plus same-origin scripts, fetches and WebAssembly. */
export const STAFF_CSP = PAGE_CSP.replace(
  "default-src 'none'",
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; worker-src 'self'",
);

/** Areas of the dashboard, one registration function each (keep one line per area). */
const AREAS: ((web: Api, deps: Deps) => void)[] = [homePages, setupPages, setupContentPages];

export function staffPages(web: Api, deps: Deps): void {
  staffAssets(web);
  web.register(async (staff) => {
    staff.addHook('onSend', async (_request, reply, payload) => {
      reply.header('Cache-Control', 'no-store');
      if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
        reply.header('Content-Security-Policy', STAFF_CSP);
      }
      return payload;
    });
    for (const area of AREAS) area(staff, deps);
  });
}
