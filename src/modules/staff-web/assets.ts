/**
 * Scripts of the staff pages, served from this origin (the CSP allows no other): htmx.org's
 * minified build from node_modules at `/assets/htmx.min.js`, and the dashboard's own plain scripts
 * from `web/public/js/<name>.js` at `/assets/js/<name>.js` (no bundler). Read once at start-up;
 * an unknown name is a 404 page. Cached by browsers for an hour (they change only with a release).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Type } from 'typebox';
import type { Api } from '../../http/typed.js';
import { notFound } from '../../lib/errors.js';
import { staffText } from '../../lib/i18n/staff.js';
import { WEB_DIR } from '../web/paths.js';

const require = createRequire(import.meta.url);
const HTMX = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'), 'utf8');
const JS_DIR = `${WEB_DIR}public/js/`;
const SCRIPTS = new Map(
  readdirSync(JS_DIR)
    .filter((f) => /^[a-z0-9-]+\.js$/.test(f))
    .map((f) => [f, readFileSync(`${JS_DIR}${f}`, 'utf8')] as const),
);
const JS = 'text/javascript; charset=utf-8';
const CACHE = 'public, max-age=3600';

export function staffAssets(web: Api): void {
  web.get('/assets/htmx.min.js', { config: { public: 'none' }, schema: { hide: true } }, async (_r, reply) =>
    reply.type(JS).header('Cache-Control', CACHE).send(HTMX),
  );
  web.get(
    '/assets/js/:name',
    {
      config: { public: 'none' },
      schema: {
        hide: true,
        params: Type.Object({ name: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const script = SCRIPTS.get(request.params.name);
      if (script === undefined) throw notFound(staffText('assets.script_not_found'));
      return reply.type(JS).header('Cache-Control', CACHE).send(script);
    },
  );
}
