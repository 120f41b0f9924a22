/**
 * `muster import --event SLUG FILE [--invite]` (docs/decisions.md "Import"): participants from a JSON or
 * CSV file, idempotent by email, in one transaction (nothing is written when any item is invalid).
 * With `--invite`, the imported registrations still `invited` without a live invitation are
 * invited (src/modules/registration/invitations/import-invite.ts) in the same transaction, and the command
 * then delivers the invitation emails itself (the email job handler in-process, up to 60 s); any still queued
 * afterwards are sent by the server's worker. Without `--invite` no email is ever sent.
 */
import type { Command } from 'commander';
import pino from 'pino';
import { loadConfig } from '../../config.js';
import type { Tx } from '../../db/client.js';
import { startEmailWorker } from '../../jobs/runner.js';
import { REDACT_PATHS } from '../../logger.js';
import { recordAudit } from '../../modules/audit/audit.service.js';
import {
  type ImportItem,
  type ImportResult,
  importParticipants,
  parseImportFile,
} from '../../modules/registration/import/import.service.js';
import {
  type InviteResult,
  inviteImported,
  waitForEmails,
} from '../../modules/registration/invitations/import-invite.js';
import { createDeps } from '../../server.js';
import { findEvent } from '../lookup.js';
import { action, type CommandResult, withDatabase } from '../runtime.js';

const SEND_TIMEOUT_MS = 60_000;

interface Outcome {
  event: { id: number; slug: string };
  result: ImportResult;
  invites?: InviteResult;
  emails?: { sent: number; failed: number; queued: number };
}

async function importInto(tx: Tx, ref: string, file: string, items: ImportItem[]) {
  const event = await findEvent(tx, ref);
  const result = await importParticipants(tx, event.id, items);
  await recordAudit(tx, {
    action: 'participants.import',
    actorUserId: null,
    eventId: event.id,
    seriesId: event.seriesId,
    metadata: { file, created: result.created, updated: result.updated },
  });
  return { event, result };
}

/** Import + invitations with the full dependencies (job queue, mailer), then delivery. */
async function importAndInvite(ref: string, file: string, items: ImportItem[]): Promise<Outcome> {
  const config = loadConfig();
  // Logs go to stderr: stdout carries the command's result (one JSON object with --json).
  const logger = pino(
    { level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    pino.destination(2),
  );
  const deps = await createDeps(config, { logger });
  try {
    const done = await deps.db.transaction(async (tx) => {
      const { event, result } = await importInto(tx, ref, file, items);
      const invites = await inviteImported(deps, tx, event.id, result.registrationIds);
      return { event, result, invites };
    });
    // Deliver now: the email handler alone, only when there is something to send.
    if (done.invites.emailLogIds.length > 0) await startEmailWorker(deps, { pollingIntervalSeconds: 0.5 });
    const emails = await waitForEmails(deps, done.invites.emailLogIds, SEND_TIMEOUT_MS);
    return { ...done, emails };
  } finally {
    await deps.close();
  }
}

function report(items: ImportItem[], o: Outcome): CommandResult {
  const { event, result, invites, emails } = o;
  const text = [
    `Imported ${items.length} participant${items.length === 1 ? '' : 's'} into ${event.slug}: ` +
      `${result.created} created, ${result.updated} updated.`,
  ];
  if (invites && emails) {
    text.push(
      `Invited ${invites.invited.length}${invites.invited.length ? `: ${invites.invited.join(', ')}` : ''}.`,
      ...(invites.alreadyInvited.length
        ? [`Already invited (not sent again): ${invites.alreadyInvited.join(', ')}.`]
        : []),
      `Invitation emails: ${emails.sent} sent, ${emails.failed} failed, ${emails.queued} still queued.`,
    );
  }
  return {
    json: {
      event_id: event.id,
      event_slug: event.slug,
      created: result.created,
      updated: result.updated,
      registration_ids: result.registrationIds,
      ...(invites && emails
        ? {
            invited: invites.invited,
            already_invited: invites.alreadyInvited,
            emails_sent: emails.sent,
            emails_failed: emails.failed,
            emails_queued: emails.queued,
          }
        : {}),
    },
    text,
  };
}

export function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description('import participants into an event from a .json or .csv file (idempotent by email)')
    .argument('<file>', '.json (array of participant objects) or .csv (one row per registration)')
    .requiredOption('--event <slug>', 'event slug (or id)')
    .option('--invite', 'email an invitation to each imported registration still "invited" (once)', false)
    .option('--json', 'print exactly one JSON object on stdout')
    .action(
      action<{ event: string; invite: boolean; json?: boolean }>(async ([file], o) => {
        const items = await parseImportFile(file!);
        const outcome = o.invite
          ? await importAndInvite(o.event, file!, items)
          : await withDatabase((tx) => importInto(tx, o.event, file!, items));
        return report(items, outcome);
      }),
    );
}
