/** `muster serve`: the API (plus the demo on an empty database), until SIGINT or SIGTERM. */
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { apiBase, demoJson, demoText } from '../demo-output.js';
import { emit, fail } from '../runtime.js';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the API server; on an empty database, seed the demo and print its credentials')
    .option('--no-demo', 'do not seed the demo data on an empty database')
    .option('--json', 'print one JSON object {url, docs_url, demo} once listening (request logs off)')
    .action(async (o: { demo: boolean; json?: boolean }) => {
      const json = Boolean(o.json);
      try {
        const config = loadConfig();
        // Loaded lazily so the other commands never load the HTTP stack.
        const { startServer } = await import('../../server.js');
        const server = await startServer({ config, seedDemoIfEmpty: o.demo, log: !json });
        const text = [`Muster is listening on ${server.url}`, `API docs: ${server.docsUrl}`];
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
        let stopping = false;
        const stop = (signal: NodeJS.Signals) => {
          if (stopping) process.exit(1); // a second signal: stop now
          stopping = true;
          if (!json) process.stderr.write(`${signal} received, shutting down...\n`);
          setTimeout(() => process.exit(1), 10_000).unref();
          server.close().then(
            () => process.exit(0),
            (error: unknown) => {
              fail(false, error);
              process.exit(1);
            },
          );
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      } catch (error) {
        fail(json, error);
      }
    });
}
