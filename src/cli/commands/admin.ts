/** `muster migrate`, `muster users create`, `muster roles grant`. */
import type { Command } from 'commander';
import { isOneOf } from '../../lib/narrow.js';
import {
  createUser,
  EVENT_ROLES,
  grantEventRole,
  grantSeriesRole,
  requireUserByEmail,
  SERIES_ROLES,
} from '../../modules/accounts/users.service.js';
import { recordAudit } from '../../modules/audit/audit.service.js';
import { findEvent, findSeries } from '../lookup.js';
import { action, CliError, withDatabase } from '../runtime.js';

const JSON_HELP = 'print exactly one JSON object on stdout';

/** `role` when it is one of `roles`; otherwise the CLI error naming the allowed ones. */
function roleOf<T extends string>(roles: readonly T[], role: string, scope: string): T {
  if (!isOneOf(roles, role))
    throw new CliError(`Unknown ${scope} role "${role}"; use one of ${roles.join(', ')}`);
  return role;
}

export function registerAdminCommands(program: Command): void {
  program
    .command('migrate')
    .description('apply the database migrations (every command also does this first)')
    .option('--json', JSON_HELP)
    .action(
      action(async () => {
        const { kind, where } = await withDatabase(async (_tx, ctx) => ({
          kind: ctx.kind,
          where:
            ctx.kind === 'embedded'
              ? `embedded database in ${ctx.config.dataDir}`
              : 'PostgreSQL (DATABASE_URL)',
        }));
        return { json: { migrated: true, database: kind }, text: `Migrations applied to the ${where}.` };
      }),
    );

  const users = program.command('users').description('manage staff user accounts');
  users
    .command('create')
    .description('create a user (sign-in is by one-time email code)')
    .requiredOption('--email <email>', 'email address (unique, case-insensitive)')
    .requiredOption('--name <name>', 'display name')
    .option('--global-admin', 'make the user a global admin', false)
    .option('--json', JSON_HELP)
    .action(
      action<{ email: string; name: string; globalAdmin: boolean; json?: boolean }>(async (_args, o) => {
        const user = await withDatabase(async (tx) => {
          const row = await createUser(tx, { email: o.email, name: o.name, globalAdmin: o.globalAdmin });
          await recordAudit(tx, {
            action: 'users.create',
            actorUserId: null,
            targetType: 'user',
            targetId: row.id,
            metadata: { email: row.email, global_admin: row.globalAdmin },
          });
          return row;
        });
        return {
          json: {
            id: user.id,
            uuid: user.uuid,
            email: user.email,
            name: user.name,
            global_admin: user.globalAdmin,
          },
          text: `Created user ${user.email} (id ${user.id})${user.globalAdmin ? ' as a global admin' : ''}.`,
        };
      }),
    );

  const roles = program.command('roles').description('grant event and series roles');
  roles
    .command('grant')
    .description(
      `grant a role: event roles ${EVENT_ROLES.join(', ')} (with --event); series roles ${SERIES_ROLES.join(', ')} (with --series)`,
    )
    .requiredOption('--email <email>', 'the user')
    .option('--event <slug>', 'event slug (or id)')
    .option('--series <slug>', 'series slug (or UUID)')
    .requiredOption('--role <role>', 'role to grant')
    .option('--json', JSON_HELP)
    .action(
      action<{ email: string; event?: string; series?: string; role: string; json?: boolean }>(
        async (_args, o) => {
          if (Boolean(o.event) === Boolean(o.series))
            throw new CliError('Give exactly one of --event or --series');
          const eventRole = o.event ? roleOf(EVENT_ROLES, o.role, 'event') : undefined;
          const seriesRole = o.series ? roleOf(SERIES_ROLES, o.role, 'series') : undefined;
          return withDatabase(async (tx) => {
            const user = await requireUserByEmail(tx, o.email);
            if (o.event && eventRole) {
              const event = await findEvent(tx, o.event);
              await grantEventRole(tx, user.id, event.id, eventRole);
              await recordAudit(tx, {
                action: 'roles.grant',
                actorUserId: null,
                eventId: event.id,
                targetType: 'user',
                targetId: user.id,
                metadata: { role: o.role, email: user.email },
              });
              return {
                json: {
                  user_id: user.id,
                  email: user.email,
                  role: o.role,
                  event_id: event.id,
                  event_slug: event.slug,
                },
                text: `Granted ${o.role} on event ${event.slug} to ${user.email}.`,
              };
            }
            if (!o.series || !seriesRole) throw new CliError('Give exactly one of --event or --series');
            const series = await findSeries(tx, o.series);
            await grantSeriesRole(tx, user.id, series.id, seriesRole);
            await recordAudit(tx, {
              action: 'roles.grant',
              actorUserId: null,
              seriesId: series.id,
              targetType: 'user',
              targetId: user.id,
              metadata: { role: o.role, email: user.email },
            });
            return {
              json: {
                user_id: user.id,
                email: user.email,
                role: o.role,
                series_id: series.id,
                series_slug: series.slug,
              },
              text: `Granted ${o.role} on series ${series.slug} to ${user.email}.`,
            };
          });
        },
      ),
    );
}
