/**
 * Route declarations: every route must say `config: { action }` (an access-policy action, with the
 * credential source it reads: `bearer` by default, `session_cookie` for web pages) or
 * `config: { public: 'none' | 'signature' }`; buildApp fails at boot otherwise. The
 * collected table feeds the authorization-matrix coverage test.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { type Action, isAction } from '../access/actions.js';

/** Where the gate reads the credential of a route's action (http/authorize.ts). */
export type CredentialSource = 'bearer' | 'session_cookie' | 'guardian_link';

export interface RouteEntry {
  method: string;
  url: string;
  action?: Action;
  credential?: CredentialSource;
  public?: 'none' | 'signature';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    action?: Action;
    /** Default `bearer`. */
    credential?: CredentialSource;
    /** A `session_cookie` page that also serves signed-out visitors (no context then). */
    optionalSession?: boolean;
    /**
     * The handler pages up to the sync high-water mark (db/watermark.ts): the gate reads it in the
     * credential's own statement when it can (`access.watermark`; mobile tokens on an event path).
     */
    syncWatermark?: boolean;
    public?: 'none' | 'signature';
  }
  interface FastifyInstance {
    musterRoutes: RouteEntry[];
  }
}

/** Routes registered by third-party plugins under these prefixes (docs UI assets) are public by nature. */
const PLUGIN_PUBLIC_PREFIXES = ['/api/v1/docs'];

export class UndeclaredRouteError extends Error {}

export function trackRoutes(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate('musterRoutes', table);
  app.addHook('onRoute', (route: RouteOptions) => {
    const config = (route.config ?? {}) as {
      action?: unknown;
      credential?: CredentialSource;
      public?: 'none' | 'signature';
    };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pluginPublic = PLUGIN_PUBLIC_PREFIXES.some((p) => route.url.startsWith(p));
    if (!pluginPublic && !isAction(config.action) && !config.public) {
      throw new UndeclaredRouteError(
        `Route ${methods.join(',')} ${route.url} declares neither config.action nor config.public`,
      );
    }
    for (const method of methods) {
      if (method === 'HEAD') continue;
      table.push({
        method,
        url: route.url,
        ...(isAction(config.action)
          ? { action: config.action, credential: config.credential ?? 'bearer' }
          : {}),
        ...(config.public || pluginPublic ? { public: config.public ?? 'none' } : {}),
      });
    }
  });
}

/** Every route the app registered (HEAD excluded). */
export function registeredRoutes(app: FastifyInstance): RouteEntry[] {
  return [...app.musterRoutes];
}
