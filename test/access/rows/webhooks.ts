/**
 * Authorization-matrix rows for the inbound receivers (spec "Events": "Inbound callback receivers …
 * Third parties call them, not API consumers"; docs/decisions.md "Messaging" "Inbound receivers (no bearer; each
 * verifies its provider's signature …)"), transcribed from the contract, not from src/access.
 * Run by test/webhooks/rows.test.ts; the route keys count for the coverage test in
 * test/access/matrix.test.ts.
 *
 * A bearer credential plays no part: every principal (none, garbage, revoked, keys, admins …) gets
 * the same answer. Columns: `signed` (a fresh event, validly signed: 200), `unsigned` (no
 * signature: 401 `Invalid or expired webhook signature` — even for a valid bearer credential),
 * `stale` (correct signature over a timestamp 10 minutes old: 401; Help Scout has no timestamp, so
 * its `stale` column is a wrong signature instead).
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

export type WebhookProviderName = 'email' | 'helpdesk' | 'esign' | 'chat';
type Target = 'signed' | 'unsigned' | 'stale';

export interface WebhookMatrixRow {
  method: 'POST';
  route: string;
  provider: WebhookProviderName;
  principal: PrincipalName;
  target: Target;
  expected: { status: number; error?: string };
}

const P = '/api/v1';
const BAD_SIGNATURE = 'Invalid or expired webhook signature';

// Every principal, every receiver: signed unsigned stale
const SAME_FOR_ALL = '200 401 401';
const COLUMNS: Target[] = ['signed', 'unsigned', 'stale'];

const PROVIDERS: WebhookProviderName[] = ['email', 'helpdesk', 'esign', 'chat'];

export const webhookRouteKeys = PROVIDERS.map((p) => `POST ${P}/webhooks/${p}`);

export const webhookRows: WebhookMatrixRow[] = PROVIDERS.flatMap((provider) =>
  PRINCIPALS.flatMap((principal) => {
    const statuses = SAME_FOR_ALL.split(' ').map(Number);
    return COLUMNS.map((target, i) => ({
      method: 'POST' as const,
      route: `POST ${P}/webhooks/${provider}`,
      provider,
      principal,
      target,
      expected: { status: statuses[i]!, ...(statuses[i] === 401 ? { error: BAD_SIGNATURE } : {}) },
    }));
  }),
);
