/** What services receive (architecture: services take `(ctx, input)` and never import Fastify). */
import type { Logger } from 'pino';
import type { AccessContext } from './access/authorize.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { Mailer } from './integrations/mailer.js';
import type { Jobs } from './jobs/queue.js';
import type { Sealer } from './lib/sealed.js';

export interface Deps {
  readonly config: Config;
  readonly database: Database;
  readonly db: Db;
  readonly log: Logger;
  readonly jobs: Jobs;
  readonly mailer: Mailer;
  readonly sealer: Sealer;
}

/** A request's context: dependencies plus the authorised caller (HTTP) or a CLI operator. */
export interface Ctx extends Deps {
  readonly access: AccessContext;
}
