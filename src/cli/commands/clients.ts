/**
 * `muster clients create|list|revoke`: the OAuth clients that may use Muster's sign-in page
 * (GET /oauth/authorize) and where it may send the user back (docs/decisions.md "Account and sessions"). Redirect URIs are
 * matched exactly; https, loopback http, or a private-use scheme for native apps such as
 * `attend://oauth/callback` (RFC 8252 §7.1). Audited `oauth_clients.create` / `oauth_clients.revoke`.
 */
import type { Command } from 'commander';
import { recordAudit } from '../../modules/audit/audit.service.js';
import {
  createOAuthClient,
  listOAuthClients,
  type OAuthClient,
  revokeOAuthClient,
} from '../../modules/signin/clients.service.js';
import { action, withDatabase } from '../runtime.js';

const JSON_HELP = 'print exactly one JSON object on stdout';

function clientJson(c: OAuthClient) {
  return { client_id: c.clientId, name: c.name, redirect_uris: c.redirectUris, created_at: c.createdAt };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerClientCommands(program: Command): void {
  const clients = program.command('clients').description('OAuth clients of the sign-in page');

  clients
    .command('create')
    .description('register an OAuth client and its redirect URIs')
    .requiredOption('--client-id <id>', 'public client id, e.g. attend-app (2-64 of a-z 0-9 . _ -)')
    .requiredOption('--name <name>', 'shown on the sign-in page ("to continue to <name>")')
    .requiredOption(
      '--redirect-uri <uri>',
      'allowed redirect URI, exact (repeat for several), e.g. attend://oauth/callback',
      collect,
    )
    .option('--json', JSON_HELP)
    .action(
      action<{ clientId: string; name: string; redirectUri: string[]; json?: boolean }>(async (_args, o) =>
        withDatabase(async (tx) => {
          const row = await createOAuthClient(tx, {
            client_id: o.clientId,
            name: o.name,
            redirect_uris: o.redirectUri,
          });
          await recordAudit(tx, {
            action: 'oauth_clients.create',
            actorUserId: null,
            targetType: 'oauth_client',
            targetId: row.clientId,
            metadata: { redirect_uris: row.redirectUris },
          });
          return {
            json: { client: clientJson(row) },
            text: `Created OAuth client ${row.clientId} ("${row.name}") with redirect URIs: ${row.redirectUris.join(', ')}`,
          };
        }),
      ),
    );

  clients
    .command('list')
    .description('list the OAuth clients')
    .option('--json', JSON_HELP)
    .action(
      action<{ json?: boolean }>(async () =>
        withDatabase(async (tx) => {
          const rows = await listOAuthClients(tx);
          return {
            json: { clients: rows.map(clientJson) },
            text:
              rows.map((c) => `${c.clientId}\t${c.name}\t${c.redirectUris.join(' ')}`).join('\n') ||
              'No OAuth clients.',
          };
        }),
      ),
    );

  clients
    .command('revoke')
    .description('remove an OAuth client: no new sign-ins; its pending codes stop working')
    .argument('<client-id>', 'the client id')
    .option('--json', JSON_HELP)
    .action(
      action<{ json?: boolean }>(async ([clientId]) =>
        withDatabase(async (tx) => {
          const row = await revokeOAuthClient(tx, clientId!);
          await recordAudit(tx, {
            action: 'oauth_clients.revoke',
            actorUserId: null,
            targetType: 'oauth_client',
            targetId: row.clientId,
            metadata: {},
          });
          return {
            json: { revoked: true, client: clientJson(row) },
            text: `Revoked OAuth client ${row.clientId}. Mobile tokens it already obtained stay valid (muster tokens revoke).`,
          };
        }),
      ),
    );
}
