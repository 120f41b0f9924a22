/** `muster seed` (demo data) and `muster import` (participants from a JSON or CSV file; see import.ts). */
import type { Command } from 'commander';
import { apiBase, demoJson, demoText } from '../demo-output.js';
import { action, intOption, withDatabase } from '../runtime.js';
import { registerImportCommand } from './import.js';

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
        const { seedDemo } = await import('../../demo/seed.js');
        const { demo, baseUrl } = await withDatabase(async (tx, { config }) => ({
          demo: await seedDemo(tx, { participants: o.participants, seed: o.seed }),
          baseUrl: config.baseUrl,
        }));
        return { json: demoJson(demo), text: demoText(demo, `${apiBase(baseUrl)}`) };
      }),
    );

  registerImportCommand(program);
}
