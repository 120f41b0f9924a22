#!/usr/bin/env node
/**
 * `muster <command>`: the operator CLI (architecture "cli/"). Every command accepts --json (exactly
 * one JSON object on stdout); errors go to stderr with exit code 1. Run in development with
 * `npx tsx src/cli/main.ts <command>`; the package bin (bin/muster.js) runs the bundle of the compiled dist/cli/main.js (dist/bundle/main.js).
 */
import { Command } from 'commander';
import { musterVersion } from '../lib/project-root.js';
import { registerAdminCommands } from './commands/admin.js';
import { registerBackupCommands } from './commands/backup.js';
import { registerClientCommands } from './commands/clients.js';
import { registerCredentialCommands } from './commands/credentials.js';
import { registerDataCommands } from './commands/data.js';
import { registerRevokeCommands } from './commands/revoke.js';
import { registerSecretKeyCommand } from './commands/secret-key.js';
import { registerSeriesEventCommands } from './commands/series-events.js';
import { registerServeCommand } from './commands/serve.js';
import { registerWorkerCommand } from './commands/worker.js';
import { exitWhenCommandsDone } from './runtime.js';

/** The command tree. */
export function buildProgram(): Command {
  const program = new Command()
    .name('muster')
    .description(
      'Muster: event registration and check-in API.\n' +
        'Database: PostgreSQL when DATABASE_URL is set, otherwise the embedded database in MUSTER_DATA_DIR (default ./data).',
    )
    .version(musterVersion())
    .showHelpAfterError();
  registerServeCommand(program);
  registerWorkerCommand(program); // the job worker alone, without HTTP
  registerSecretKeyCommand(program);
  registerAdminCommands(program);
  registerSeriesEventCommands(program);
  registerCredentialCommands(program);
  registerRevokeCommands(program); // adds `revoke` to the `keys` and `tokens` groups
  registerClientCommands(program);

  registerDataCommands(program);
  registerBackupCommands(program); // backup, restore
  return program;
}

exitWhenCommandsDone();
await buildProgram().parseAsync(process.argv);
