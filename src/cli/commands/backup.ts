/**
 * `muster backup [--out FILE]` and `muster restore FILE [--data-dir DIR] [--key-file FILE]`
 * (docs/operations.md "Backups", "Restore drill"). `backup` asks the running server through its
 * control socket when one runs on the embedded data folder, and otherwise opens the database itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/client.js';
import { migrateDatabase } from '../../db/migrate.js';
import { errorMessage } from '../../lib/narrow.js';
import { createSealer } from '../../lib/sealed.js';
import { type BackupResult, createBackup, scheduledName } from '../../modules/backup/backup.service.js';
import { requestBackup } from '../../modules/backup/control.js';
import { BackupError, backupKeysFrom } from '../../modules/backup/format.js';
import { restoreBackup } from '../../modules/backup/restore.service.js';
import { action, CliError } from '../runtime.js';

const JSON_HELP = 'print exactly one JSON object on stdout';

async function backupDirectly(out: string): Promise<BackupResult> {
  const config = loadConfig();
  const sealer = createSealer({
    secretKey: config.secretKey,
    previousSecretKey: config.previousSecretKey,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
  });
  const database = await openDatabase(config);
  try {
    await migrateDatabase(database);
    return await createBackup({ config, database, sealer }, out);
  } finally {
    await database.close();
  }
}

const summary = (r: BackupResult, via: string) => [
  `Backup written: ${r.file} (${(r.bytes / 1024 / 1024).toFixed(1)} MB, ${via})`,
  `  taken ${r.manifest.created_at}, Muster ${r.manifest.muster_version}, migration ${r.manifest.migration.tag}`,
  `  ${Object.values(r.manifest.row_counts).reduce((a, b) => a + b, 0)} rows in ${Object.keys(r.manifest.row_counts).length} tables`,
];

export function registerBackupCommands(program: Command): void {
  program
    .command('backup')
    .description(
      'write an encrypted, compressed backup of the database (asks the running server if there is one)',
    )
    .option(
      '--out <file>',
      'the backup file (default: MUSTER_BACKUP_DIR or the current folder, muster-<time>.muster-backup)',
    )
    .option('--json', JSON_HELP)
    .action(
      action<{ out?: string; json?: boolean }>(async (_args, o) => {
        const config = loadConfig();
        const out = path.resolve(o.out ?? path.join(config.backup.dir ?? '.', scheduledName()));
        let result: BackupResult | null = null;
        let via = 'database opened by this command';
        if (!config.databaseUrl && config.dataDir !== 'memory://') {
          result = await requestBackup(config.dataDir, out).catch((error: unknown) => {
            throw new CliError(`The running server could not take the backup: ${errorMessage(error)}`);
          });
          if (result) via = 'taken by the running server';
        }
        result ??= await backupDirectly(out);
        return { json: { ...result }, text: summary(result, via) };
      }),
    );

  program
    .command('restore')
    .argument('<file>', 'a backup written by `muster backup` or the scheduled backups')
    .description(
      'restore a backup into a new, empty data folder (embedded) or an empty PostgreSQL database (DATABASE_URL)',
    )
    .option('--data-dir <dir>', 'the new data folder (embedded backups)')
    .option(
      '--key-file <file>',
      'the secret.key of the data folder that made the backup (when MUSTER_SECRET_KEY is not that key)',
    )
    .option('--json', JSON_HELP)
    .action(
      action<{ dataDir?: string; keyFile?: string; json?: boolean }>(async ([file], o) => {
        if (!file) throw new CliError('Name the backup file');
        const config = loadConfig();
        const keyFile = o.keyFile ? readFileSync(o.keyFile, 'utf8') : undefined;
        try {
          const result = await restoreBackup({
            file,
            dataDir: o.dataDir,
            databaseUrl: o.dataDir ? undefined : config.databaseUrl,
            passphrase: config.backup.passphrase,
            serverKeys: backupKeysFrom([config.secretKey, config.previousSecretKey, keyFile]),
          });
          return {
            json: { ...result },
            text: [
              `Restored into ${result.target}: ${result.rows} rows in ${result.tables} tables, as the backup's manifest says.`,
              `  backup taken ${result.manifest.created_at} by Muster ${result.manifest.muster_version} (migration ${result.manifest.migration.tag})`,
              result.manifest.kind === 'embedded'
                ? `  start it with MUSTER_DATA_DIR=${result.target} muster serve`
                : '  start Muster on it as usual: migrations newer than the backup are applied at start-up',
            ],
          };
        } catch (error) {
          if (error instanceof BackupError) throw new CliError(error.message);
          throw error;
        }
      }),
    );
}
