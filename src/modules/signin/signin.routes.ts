/**
 * Sign-in routes (docs/decisions.md "Account and sessions"), all public (`config: { public: 'none' }`; an Authorization header
 * is ignored): the sign-in pages under /oauth and the token endpoint POST /session.
 *
 * Scoped to this plugin: an `application/x-www-form-urlencoded` parser (HTML forms and standard
 * OAuth token requests), an error handler that answers browsers (`Accept: text/html`) with an HTML
 * page and everyone else with the usual `{error}`, and a request-log serializer that drops query
 * strings (they carry upstream codes and states). Rate limits per route (429 + Retry-After).
 */

import type { Deps } from '../../deps.js';
import type { Api } from '../../http/typed.js';
import { authorizeRoutes } from './authorize.routes.js';
import { sessionRoute } from './session.routes.js';
import { pagesEnv, parseForm, setPageErrorHandler } from './signin.http.js';
import { upstreamRoutes } from './upstream.routes.js';

export function signinRoutes(app: Api, deps: Deps): void {
  if (deps.config.devSignIn) {
    deps.log.warn(
      'MUSTER_DEV_SIGN_IN is enabled: POST /session accepts {dev_email} without any proof. Never in production.',
    );
  }
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      parseForm,
    );
    await scope.register(async (pages) => pageRoutes(pages, deps));
    sessionRoute(scope, deps);
  });
}

function pageRoutes(app: Api, deps: Deps): void {
  setPageErrorHandler(app);
  const env = pagesEnv(app, deps);
  authorizeRoutes(app, deps, env);
  upstreamRoutes(app, deps, env);
}
