/**
 * `muster keys revoke` and `muster tokens revoke`: the operator's revocation, by id or by secret.
 * Register after registerCredentialCommands (this adds `revoke` to its `keys` and `tokens` groups,
 * creating them only when absent). Operator revocations are audited (`keys.revoke`,
 * `tokens.revoke`); unlike POST /tokens/revoke they send no email (the CLI runs no job queue).
 * `--secret -` reads the secret from stdin, keeping it out of shell history and the process list.
 */
import type { Command } from 'commander';
import type { Tx } from '../../db/client.js';
import { isOneOf } from '../../lib/narrow.js';
import { classifySecret } from '../../lib/secrets.js';
import { recordAudit } from '../../modules/audit/audit.service.js';
import {
  type KeyKind,
  KIND_LABEL,
  type RevokedCredential,
  revokeActiveByDigest,
  revokeActiveMobileByDigest,
  revokeGlobalToken,
  revokeKey,
  revokeMobileToken,
} from '../../modules/credentials/revoke.service.js';
import { action, CliError, type CommandResult, intOption, withDatabase } from '../runtime.js';

const JSON_HELP = 'print exactly one JSON object on stdout';
const KEY_KINDS: readonly KeyKind[] = ['series', 'event', 'legacy'];
const TOKEN_KINDS = ['global', 'mobile'] as const;

/** The existing command group `name`, or a new one. */
function group(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

async function readSecret(value: string): Promise<string> {
  if (value !== '-') return value.trim();
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function result(c: RevokedCredential, via: 'id' | 'secret'): CommandResult {
  const where = c.eventName
    ? ` of event "${c.eventName}" (id ${c.eventId})`
    : c.seriesName
      ? ` of series "${c.seriesName}"`
      : c.ownerEmail
        ? ` of ${c.ownerEmail}`
        : '';
  return {
    json: {
      revoked: true,
      kind: c.kind,
      id: c.id,
      name: c.name,
      owner_email: c.ownerEmail,
      series_id: c.seriesId,
      event_id: c.eventId,
      revoked_at: c.revokedAt,
      via,
    },
    text: `Revoked ${KIND_LABEL[c.kind]} "${c.name}" (id ${c.id})${where} at ${c.revokedAt}. It no longer works.`,
  };
}

async function audit(tx: Tx, action: string, c: RevokedCredential, via: 'id' | 'secret'): Promise<void> {
  await recordAudit(tx, {
    action,
    actorUserId: null,
    eventId: c.eventId,
    seriesId: c.seriesId,
    targetType: c.kind,
    targetId: c.id,
    metadata: { key_kind: c.kind, key_id: c.id, key_name: c.name, owner_user_id: c.ownerUserId, via },
  });
}

/** Exactly one of --id / --secret. */
function checkTarget(o: { id?: number; secret?: string }): void {
  if ((o.id === undefined) === (o.secret === undefined))
    throw new CliError('Give exactly one of --id or --secret');
}

export function registerRevokeCommands(program: Command): void {
  group(program, 'keys', 'series and event API keys')
    .command('revoke')
    .description("revoke a series or event API key (or an event's legacy key) by id, or by its secret")
    .option('--id <n>', 'key id (with --kind legacy: the event id)', intOption('--id', 1, 2 ** 31 - 1))
    .option('--kind <kind>', `with --id: ${KEY_KINDS.join(', ')}`)
    .option('--secret <secret>', 'the key\'s secret ("-" reads it from stdin)')
    .option('--json', JSON_HELP)
    .action(
      action<{ id?: number; kind?: string; secret?: string; json?: boolean }>(async (_args, o) => {
        checkTarget(o);
        if (o.id !== undefined) {
          const kind = o.kind;
          if (!isOneOf(KEY_KINDS, kind)) throw new CliError(`--id needs --kind ${KEY_KINDS.join('|')}`);
          const id = o.id;
          return withDatabase(async (tx) => {
            const revoked = await revokeKey(tx, { kind, id });
            await audit(tx, 'keys.revoke', revoked, 'id');
            return result(revoked, 'id');
          });
        }
        if (o.kind !== undefined)
          throw new CliError('--kind applies to --id only; a secret names its own kind');
        const classified = classifySecret(await readSecret(o.secret!));
        if (!classified)
          throw new CliError('That is not a Muster API key secret (format or checksum is wrong)');
        if (classified.kind === 'global' || classified.kind === 'mobile') {
          throw new CliError(
            `That secret is a ${classified.kind === 'global' ? 'global API token' : 'mobile token'}: use muster tokens revoke`,
          );
        }
        const { kind, digest } = classified;
        return withDatabase(async (tx) => {
          const revoked = await revokeActiveByDigest(tx, kind, digest);
          if (!revoked) throw new CliError('No active key has that secret (unknown or already revoked)');
          await audit(tx, 'keys.revoke', revoked, 'secret');
          return result(revoked, 'secret');
        });
      }),
    );

  group(program, 'tokens', 'mobile tokens and global API tokens')
    .command('revoke')
    .description('revoke a global API token (or, with --kind mobile, a mobile token) by id, or by its secret')
    .option('--id <n>', 'token id', intOption('--id', 1, 2 ** 31 - 1))
    .option('--kind <kind>', `with --id: ${TOKEN_KINDS.join(' or ')} (default global)`)
    .option('--secret <secret>', 'the token\'s secret ("-" reads it from stdin)')
    .option('--json', JSON_HELP)
    .action(
      action<{ id?: number; kind?: string; secret?: string; json?: boolean }>(async (_args, o) => {
        checkTarget(o);
        if (o.id !== undefined) {
          const kind = o.kind ?? 'global';
          if (!isOneOf(TOKEN_KINDS, kind)) throw new CliError(`--kind must be ${TOKEN_KINDS.join(' or ')}`);
          const id = o.id;
          return withDatabase(async (tx) => {
            const revoked =
              kind === 'mobile' ? await revokeMobileToken(tx, id) : await revokeGlobalToken(tx, id);
            await audit(tx, 'tokens.revoke', revoked, 'id');
            return result(revoked, 'id');
          });
        }
        if (o.kind !== undefined)
          throw new CliError('--kind applies to --id only; a secret names its own kind');
        const classified = classifySecret(await readSecret(o.secret!));
        if (!classified) throw new CliError('That is not a Muster token (format or checksum is wrong)');
        if (classified.kind !== 'global' && classified.kind !== 'mobile') {
          throw new CliError('That secret is a series or event API key: use muster keys revoke');
        }
        const { kind, digest } = classified;
        return withDatabase(async (tx) => {
          const revoked =
            kind === 'mobile'
              ? await revokeActiveMobileByDigest(tx, digest)
              : await revokeActiveByDigest(tx, kind, digest);
          if (!revoked)
            throw new CliError('No active token has that secret (unknown, expired or already revoked)');
          await audit(tx, 'tokens.revoke', revoked, 'secret');
          return result(revoked, 'secret');
        });
      }),
    );
}
