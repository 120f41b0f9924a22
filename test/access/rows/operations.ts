/**
 * Authorization-matrix rows for the operations routes (docs/operations.md "Metrics"), written from
 * that section, not from src/access: `GET /metrics` authenticates only with the operator's
 * `MUSTER_METRICS_TOKEN`. No Muster credential, whatever its role or scope, opens it. Columns:
 * `no_token` (the principal's own Authorization header), `metrics_token` (the configured token sent
 * as a bearer: 200 whoever holds it). Run by test/ops/rows.test.ts; the keys count for coverage.
 */
import { PRINCIPALS, type PrincipalName } from '../../support/world.js';

export interface OperationsRow {
  route: string;
  principal: PrincipalName;
  credential: 'own' | 'metrics_token';
  expected: { status: number; error?: string };
}

export const operationsRouteKeys = ['GET /metrics'];

export const operationsRows: OperationsRow[] = PRINCIPALS.flatMap((principal) => [
  {
    route: 'GET /metrics',
    principal,
    credential: 'own' as const,
    expected: { status: 401, error: 'Unauthorized' },
  },
  { route: 'GET /metrics', principal, credential: 'metrics_token' as const, expected: { status: 200 } },
]);
