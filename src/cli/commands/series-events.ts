/** `muster series create` and `muster events create`. */
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { grantSeriesRole, requireUserByEmail } from '../../modules/accounts/users.service.js';
import { recordAudit } from '../../modules/audit/audit.service.js';
import { insertEvent, prepareEvent } from '../../modules/events/event-create.service.js';
import { createSeries } from '../../modules/events/records.service.js';
import { findSeries } from '../lookup.js';
import { action, withDatabase } from '../runtime.js';

const JSON_HELP = 'print exactly one JSON object on stdout';

export function registerSeriesEventCommands(program: Command): void {
  program
    .command('series')
    .description('manage event series')
    .command('create')
    .description('create a series')
    .requiredOption('--name <name>', 'series name')
    .option('--slug <slug>', 'URL slug (default: from the name)')
    .option('--owner <email>', 'user who becomes the series owner')
    .option('--json', JSON_HELP)
    .action(
      action<{ name: string; slug?: string; owner?: string; json?: boolean }>(async (_args, o) => {
        const { row, ownerId } = await withDatabase(async (tx) => {
          const owner = o.owner ? await requireUserByEmail(tx, o.owner) : undefined;
          const created = await createSeries(tx, { name: o.name.trim(), slug: o.slug });
          if (owner) await grantSeriesRole(tx, owner.id, created.id, 'owner');
          await recordAudit(tx, {
            action: 'series.create',
            actorUserId: null,
            seriesId: created.id,
            targetType: 'series',
            targetId: created.id,
            metadata: { slug: created.slug, owner_user_id: owner?.id ?? null },
          });
          return { row: created, ownerId: owner?.id ?? null };
        });
        return {
          json: { id: row.id, slug: row.slug, name: row.name, owner_user_id: ownerId },
          text: `Created series ${row.slug} (id ${row.id})${o.owner ? ` owned by ${o.owner.trim().toLowerCase()}` : ''}.`,
        };
      }),
    );

  program
    .command('events')
    .description('manage events')
    .command('create')
    .description('create an event in a series (a draft unless --setup-complete)')
    .requiredOption('--series <slug>', 'series slug (or UUID)')
    .requiredOption('--name <name>', 'event name')
    .requiredOption(
      '--support-email <email>',
      'sender/reply-to address; its domain must be an operator domain',
    )
    .option('--slug <slug>', 'URL slug (default: from the name)')
    .option('--timezone <zone>', 'IANA time zone', 'UTC')
    .option('--setup-complete', 'mark the setup as finished (otherwise the event is a draft)', false)
    .option('--json', JSON_HELP)
    .action(
      action<{
        series: string;
        name: string;
        supportEmail: string;
        slug?: string;
        timezone: string;
        setupComplete: boolean;
        json?: boolean;
      }>(async (_args, o) => {
        // The API's rules (docs/decisions.md "Series, events and bans"), checked before the database is opened: bad input fails fast.
        const prepared = prepareEvent(
          { name: o.name, support_email: o.supportEmail, slug: o.slug, timezone: o.timezone },
          loadConfig().operatorDomains,
        );
        const event = await withDatabase(async (tx) => {
          const series = await findSeries(tx, o.series);
          return insertEvent(tx, series, prepared, { setupComplete: o.setupComplete });
        });
        return {
          json: {
            id: event.id,
            uuid: event.uuid,
            slug: event.slug,
            name: event.name,
            series_id: event.seriesId,
            support_email: event.supportEmail,
            timezone: event.timezone,
            setup_complete: event.setupComplete,
          },
          text: `Created event ${event.slug} (id ${event.id}, ${event.setupComplete ? 'ready' : 'draft'}).`,
        };
      }),
    );
}
