/** What services receive (architecture: services take `(ctx, input)` and never import Fastify). */
import type { FastifyBaseLogger } from 'fastify';
import type { Action } from './access/actions.js';
import type {
  AccessContext,
  AccessFor,
  EventAccess,
  GuardianLinkAccess,
  MobileAccess,
  RegistrationAccess,
  SeriesAccess,
  SeriesEventAccess,
  UserAccess,
} from './access/authorize.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { Mailer } from './integrations/mailer.js';
import type { Jobs } from './jobs/queue.js';
import type { Sealer } from './lib/sealed.js';

export interface Deps {
  readonly config: Config;
  readonly database: Database;
  readonly db: Db;
  readonly log: FastifyBaseLogger;
  readonly jobs: Jobs;
  readonly mailer: Mailer;
  readonly sealer: Sealer;
}

/** A request's context: dependencies plus the authorised caller (HTTP) or a CLI operator. */
export interface Ctx<A extends AccessContext = AccessContext> extends Deps {
  readonly access: A;
}

/** The gate's context for `action` (access/authorize.ts AccessFor): what its route hands a service. */
export type CtxFor<A extends Action> = Ctx<AccessFor<A>>;
/** An event action's context: `access.event` is the resolved `{event_id}`. */
export type EventCtx = Ctx<EventAccess>;
/** A series action's context: `access.series` is the resolved `{series_id}`. */
export type SeriesCtx = Ctx<SeriesAccess>;
/** An action on an event of a series (`/series/{s}/events/{e}`): both rows resolved. */
export type SeriesEventCtx = Ctx<SeriesEventAccess>;
/** A user-only action's context: `access.principal` carries `user`. */
export type UserCtx = Ctx<UserAccess>;
/** A user-only action on an event: the event row and a user principal. */
export type UserEventCtx = Ctx<EventAccess & UserAccess>;
/** A user-only action on a series: the series row and a user principal. */
export type UserSeriesCtx = Ctx<SeriesAccess & UserAccess>;
/** A mobile-token-only action's context (docs/decisions.md "Credentials and roles"). */
export type MobileCtx = Ctx<MobileAccess>;
/** An action on the caller's own registration: `access.registration` is resolved and theirs. */
export type RegistrationCtx = Ctx<RegistrationAccess>;
/** A guardian-portal action: the guardian the link names (access/guardian-link.ts). */
export type GuardianCtx = Ctx<GuardianLinkAccess>;
