/**
 * GET /my-data (docs/privacy.md "Subject access"): the signed-in person downloads everything Muster
 * holds about them, the same ZIP as `GET /api/v1/me/data-export`, from the link on the home page.
 * Signed out → the sign-in page, then back here.
 */
import type { Deps } from '../../deps.js';
import { routeCtx } from '../../http/authorize.js';
import type { Api } from '../../http/typed.js';
import { exportOwn } from '../privacy/privacy.service.js';

export function myDataPage(app: Api, deps: Deps): void {
  app.get(
    '/my-data',
    { config: { action: 'privacy.own_export', credential: 'session_cookie' }, schema: { hide: true } },
    async (request, reply) => {
      const zip = await exportOwn(routeCtx(deps, request));
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', 'attachment; filename="muster-data.zip"')
        .header('Cache-Control', 'no-store')
        .send(zip);
    },
  );
}
