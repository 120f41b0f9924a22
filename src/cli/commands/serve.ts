/**
 * `muster serve`: the API until SIGINT or SIGTERM. The demo is seeded on an empty database only
 * where it is safe by default: the embedded database (a laptop: `npm start`), or with `--demo`.
 * On PostgreSQL (production) it needs `--demo`, and MUSTER_SECRET_KEY must be set (lib/sealed.ts).
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { requireSharedKey } from '../../lib/sealed.js';
import { apiBase, demoJson, demoText } from '../demo-output.js';
import { emit, fail } from '../runtime.js';
import { stopOnSignals } from '../stop.js';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'run the API server; on an empty embedded database, seed the demo and print its credentials ' +
        '(on PostgreSQL only with --demo)',
    )
    .option('--demo', 'seed the demo data on an empty database (the default for the embedded database)')
    .option('--no-demo', 'never seed the demo data')
    .option('--json', 'print one JSON object {url, docs_url, demo} once listening (request logs off)')
    .action(async (o: { demo?: boolean; json?: boolean }) => {
      const json = Boolean(o.json);
      try {
        const config = loadConfig();
        requireSharedKey(config);
        // Loaded lazily so the other commands never load the HTTP stack.
        const { startServer } = await import('../../server.js');
        const server = await startServer({
          config,
          seedDemoIfEmpty: o.demo ?? !config.databaseUrl,
          log: !json,
        });
        const text = [`Muster is listening on ${server.url}`, `API docs: ${server.docsUrl}`];
        // Credentials only when the demo was created by this start (never on a later start).
        if (server.demo) text.push('', ...demoText(server.demo, apiBase(server.url)));
        text.push('', 'Press Ctrl+C to stop.');
        emit(json, {
          json: {
            url: server.url,
            docs_url: server.docsUrl,
            demo: server.demo ? demoJson(server.demo) : null,
          },
          text,
        });
        stopOnSignals(() => server.close(), { quiet: json });
      } catch (error) {
        fail(json, error);
      }
    });
}
