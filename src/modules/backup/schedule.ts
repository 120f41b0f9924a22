/**
 * Scheduled backups (`MUSTER_BACKUP_DIR`, every `MUSTER_BACKUP_INTERVAL_HOURS`, keeping the newest
 * `MUSTER_BACKUP_KEEP`): a timer in the serving process. A failed backup is logged and retried at
 * the next interval; it never stops the server. Also the start-up warning about where the backup
 * key lives (docs/operations.md "Backups").
 */
import path from 'node:path';
import type { Logger } from 'pino';
import { type BackupDeps, createBackup, pruneBackups, scheduledName } from './backup.service.js';

/** Logs, at start, what a backup of this server needs besides the file. */
export function warnAboutBackupKey(deps: BackupDeps & { log: Logger }): void {
  if (deps.sealer.source !== 'file' || deps.config.backup.passphrase) return;
  deps.log.warn(
    { key_file: path.join(path.resolve(deps.config.dataDir), 'secret.key') },
    'Backups are encrypted with the key generated into the data folder: a lost disk loses the key with the data. Keep a copy of secret.key somewhere else, or set MUSTER_BACKUP_PASSPHRASE (docs/operations.md "Backups").',
  );
}

/** Starts the backup timer when MUSTER_BACKUP_DIR is set; returns its stop function. */
export function startBackupSchedule(deps: BackupDeps & { log: Logger }): () => void {
  const { dir, intervalHours, keep } = deps.config.backup;
  if (!dir) return () => {};
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const result = await createBackup(deps, path.join(dir, scheduledName()));
      const removed = await pruneBackups(dir, keep);
      deps.log.info(
        { file: result.file, bytes: result.bytes, removed: removed.length },
        'scheduled backup written',
      );
    } catch (error) {
      deps.log.error({ err: error }, 'scheduled backup failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalHours * 3_600_000);
  timer.unref();
  deps.log.info({ dir, interval_hours: intervalHours, keep }, 'scheduled backups on');
  return () => clearInterval(timer);
}
