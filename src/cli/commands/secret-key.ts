/**
 * `muster secret-key`: prints a new random MUSTER_SECRET_KEY (32 bytes, base64) without touching
 * any database. Every `serve` and `worker` process of one PostgreSQL deployment must share it.
 */
import type { Command } from 'commander';
import { generateSecretKey } from '../../lib/sealed.js';
import { action } from '../runtime.js';

export function registerSecretKeyCommand(program: Command): void {
  program
    .command('secret-key')
    .description('print a new random MUSTER_SECRET_KEY (required on PostgreSQL; see docs/operations.md)')
    .option('--json', 'print exactly one JSON object {secret_key} on stdout')
    .action(
      action(async () => {
        const key = generateSecretKey();
        return { json: { secret_key: key }, text: key };
      }),
    );
}
