/** `muster seed` (demo data) and `muster import` (participants from a JSON or CSV file). */
import type { Command } from 'commander';
import { recordAudit } from '../../modules/audit/audit.service.js';
import { importParticipants, parseImportFile } from '../../modules/participants/import.service.js';
import { apiBase, demoJson, demoText } from '../demo-output.js';
import { findEvent } from '../lookup.js';
import { action, intOption, withDatabase } from '../runtime.js';

const JSON_HELP = 'print exactly one JSON object on stdout';

export function registerDataCommands(program: Command): void {
  program
    .command('seed')
    .description('create the demo data set (series "demo-series", events, staff, participants, credentials)')
    .option(
      '--participants <n>',
      'participants in the demo event',
      intOption('--participants', 1, 50_000),
      60,
    )
    .option('--seed <s>', 'random seed (same seed, same demo)', intOption('--seed', 0, 2 ** 31 - 1), 1)
    .option('--json', JSON_HELP)
    .action(
      action<{ participants: number; seed: number; json?: boolean }>(async (_args, o) => {
        // Loaded lazily: the generator (faker) is only needed here.
        const { seedDemo } = await import('../../modules/demo/seed.js');
        const { demo, baseUrl } = await withDatabase(async (tx, { config }) => ({
          demo: await seedDemo(tx, { participants: o.participants, seed: o.seed }),
          baseUrl: config.baseUrl,
        }));
        return { json: demoJson(demo), text: demoText(demo, `${apiBase(baseUrl)}`) };
      }),
    );

  program
    .command('import')
    .description('import participants into an event from a .json or .csv file (idempotent by email)')
    .argument('<file>', '.json (array of participant objects) or .csv (one row per registration)')
    .requiredOption('--event <slug>', 'event slug (or id)')
    .option('--invite', 'list the participants who should be invited (registrations left "invited")', false)
    .option('--json', JSON_HELP)
    .action(
      action<{ event: string; invite: boolean; json?: boolean }>(async ([file], o) => {
        const items = await parseImportFile(file!);
        const { event, result } = await withDatabase(async (tx) => {
          const event = await findEvent(tx, o.event);
          const result = await importParticipants(tx, event.id, items, { invite: o.invite });
          await recordAudit(tx, {
            action: 'participants.import',
            actorUserId: null,
            eventId: event.id,
            seriesId: event.seriesId,
            metadata: { file: file!, created: result.created, updated: result.updated },
          });
          return { event, result };
        });
        const text = [
          `Imported ${items.length} participant${items.length === 1 ? '' : 's'} into ${event.slug}: ` +
            `${result.created} created, ${result.updated} updated.`,
        ];
        if (result.toInvite) {
          text.push(
            result.toInvite.length === 0
              ? 'Nobody to invite: no registration is in status "invited".'
              : `${result.toInvite.length} to invite (invitation emails are not sent by this version of muster import):`,
            ...result.toInvite.map((email) => `  ${email}`),
          );
        }
        return {
          json: {
            event_id: event.id,
            event_slug: event.slug,
            created: result.created,
            updated: result.updated,
            registration_ids: result.registrationIds,
            ...(result.toInvite ? { to_invite: result.toInvite } : {}),
          },
          text,
        };
      }),
    );
}
