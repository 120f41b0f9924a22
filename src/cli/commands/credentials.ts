/** `muster keys create` and `muster tokens create`: secrets are printed once and never stored. */
import type { Command } from 'commander';
import { requireUserByEmail } from '../../modules/accounts/users.service.js';
import { recordAudit } from '../../modules/audit/audit.service.js';
import {
  type IssuedSecret,
  issueEventKey,
  issueGlobalToken,
  issueLegacyEventKey,
  issueMobileToken,
  issueSeriesKey,
} from '../../modules/credentials/issue.service.js';
import { findEvent, findSeries } from '../lookup.js';
import { action, CliError, withDatabase } from '../runtime.js';

const JSON_HELP = 'print exactly one JSON object on stdout';
const SCOPES = ['bans:write'];

function secretText(title: string, secret: IssuedSecret): string[] {
  return [
    `${title} (id ${secret.id})${secret.expires_at ? `, expires ${secret.expires_at}` : ''}.`,
    'Secret (shown only this once; store it now):',
    '',
    `  ${secret.secret}`,
    '',
  ];
}

export function registerCredentialCommands(program: Command): void {
  program
    .command('keys')
    .description('series and event API keys')
    .command('create')
    .description(
      'issue a series API key (--series) or an event API key (--event, or --legacy for a per-event key)',
    )
    .option('--series <slug>', 'series slug (or UUID)')
    .option('--event <slug>', 'event slug (or id)')
    .requiredOption(
      '--owner <email>',
      'user responsible for the key (notified when it is revoked; for --legacy, audit only)',
    )
    .requiredOption('--name <name>', 'key name, shown in audit entries')
    .option('--legacy', 'issue the legacy per-event key instead (replaces an existing one)', false)
    .option('--json', JSON_HELP)
    .action(
      action<{
        series?: string;
        event?: string;
        owner: string;
        name: string;
        legacy: boolean;
        json?: boolean;
      }>(async (_args, o) => {
        if (Boolean(o.series) === Boolean(o.event))
          throw new CliError('Give exactly one of --series or --event');
        if (o.legacy && !o.event) throw new CliError('--legacy applies to event keys: use it with --event');
        const name = o.name.trim();
        if (!name) throw new CliError('--name must not be blank');
        return withDatabase(async (tx) => {
          const owner = await requireUserByEmail(tx, o.owner);
          const scope = o.series
            ? { series: await findSeries(tx, o.series) }
            : { event: await findEvent(tx, o.event!) };
          const kind = scope.series ? 'series_key' : o.legacy ? 'legacy_event_key' : 'event_key';
          const issued = scope.series
            ? await issueSeriesKey(tx, scope.series.id, { name, ownerUserId: owner.id })
            : o.legacy
              ? await issueLegacyEventKey(tx, scope.event!.id, name)
              : await issueEventKey(tx, scope.event!.id, { name, ownerUserId: owner.id });
          await recordAudit(tx, {
            action: 'keys.create',
            actorUserId: null,
            eventId: scope.event?.id ?? null,
            seriesId: scope.series?.id ?? scope.event?.seriesId ?? null,
            targetType: kind,
            targetId: issued.id,
            metadata: { name, owner_email: owner.email },
          });
          const target = scope.series
            ? { series_id: scope.series.id, series_slug: scope.series.slug }
            : { event_id: scope.event!.id, event_slug: scope.event!.slug };
          const label = scope.series
            ? `Series API key "${name}" for ${scope.series.slug}`
            : `${o.legacy ? 'Legacy event key' : 'Event API key'} "${name}" for ${scope.event!.slug}`;
          return {
            // A legacy key has no owner column: its owner is recorded in the audit entry only.
            json: {
              secret: issued.secret,
              id: issued.id,
              kind,
              name,
              owner_user_id: o.legacy ? null : owner.id,
              ...target,
            },
            text: secretText(label, issued),
          };
        });
      }),
    );

  program
    .command('tokens')
    .description('mobile tokens and global API tokens')
    .command('create')
    .description('issue a mobile token (14 days) or a global API token (owner must be a global admin)')
    .requiredOption('--kind <kind>', 'mobile or global')
    .requiredOption('--email <email>', 'the user the token acts as')
    .option('--scope <scope>', `limit a global token to one scope (${SCOPES.join(', ')})`)
    .option('--name <name>', 'token name (global) or device name (mobile)')
    .option('--json', JSON_HELP)
    .action(
      action<{ kind: string; email: string; scope?: string; name?: string; json?: boolean }>(
        async (_args, o) => {
          if (o.kind !== 'mobile' && o.kind !== 'global')
            throw new CliError('--kind must be mobile or global');
          if (o.scope !== undefined && o.kind !== 'global')
            throw new CliError('--scope applies to global tokens only');
          if (o.scope !== undefined && !SCOPES.includes(o.scope)) {
            throw new CliError(`Unknown scope "${o.scope}"; the only scope is ${SCOPES.join(', ')}`);
          }
          return withDatabase(async (tx) => {
            const user = await requireUserByEmail(tx, o.email);
            if (o.kind === 'global' && !user.globalAdmin) {
              throw new CliError(
                `${user.email} is not a global admin; global API tokens are honoured only for global admins`,
              );
            }
            const scopes = o.scope ? [o.scope] : [];
            const name = o.name?.trim() || (o.kind === 'global' ? 'CLI token' : 'CLI');
            const issued =
              o.kind === 'mobile'
                ? await issueMobileToken(tx, user.id, { deviceName: name })
                : await issueGlobalToken(tx, user.id, { name, scopes });
            await recordAudit(tx, {
              action: 'tokens.create',
              actorUserId: null,
              targetType: o.kind === 'mobile' ? 'mobile_token' : 'global_token',
              targetId: issued.id,
              metadata: { kind: o.kind, name, scopes, email: user.email },
            });
            const what =
              o.kind === 'mobile'
                ? 'Mobile token'
                : `Global API token${scopes.length ? ` (scope ${scopes[0]})` : ''}`;
            return {
              json: {
                secret: issued.secret,
                id: issued.id,
                kind: o.kind,
                user_id: user.id,
                email: user.email,
                name,
                scopes,
                expires_at: issued.expires_at,
              },
              text: secretText(`${what} for ${user.email}`, issued),
            };
          });
        },
      ),
    );
}
