/**
 * Authorization-matrix rows for the door's new fields (docs/checkin.md "Door verdicts",
 * "Overrides", "Presence"), transcribed from the contract and the issue, not from src/access:
 *
 * - `force` (let a refused entry in anyway): event admins, safeguarding leads, series roles and
 *   global admins; other callers who may scan (`ops`, `limited`) get 403 and nothing is stored.
 * - The authorised pickup adults at an exit: callers who may read personal data (every role but
 *   `limited`); `limited` never receives the names, not even in an error.
 * - The `medical_alert` message: specific for callers who may read sensitive data (global admins,
 *   the event's safeguarding lead), generic for everyone else.
 *
 * Columns: `force` (status of a forced scan of a withdrawn participant in A's check-in context),
 * `pickup` (`shown`/`hidden`: the 422 of an exit without `collected_by`), `medical`
 * (`detail`/`generic`). Only principals that may scan in event A are listed.
 */
import type { PrincipalName } from '../../support/world.js';

export interface DoorRow {
  principal: PrincipalName;
  force: number;
  pickup: 'shown' | 'hidden';
  medical: 'detail' | 'generic';
}

// biome-ignore format: the matrix is a hand-aligned literal table
const TABLE: Partial<Record<PrincipalName, string>> = {
  //                 force pickup medical
  limited:          '403   hidden generic',
  ops:              '403   shown  generic',
  eventAdmin:       '200   shown  generic',
  safeguarding:     '200   shown  detail',
  seriesOwner:      '200   shown  generic',
  seriesOrganizer:  '200   shown  generic',
  admin:            '200   shown  detail',
  globalToken:      '200   shown  detail',
};

export const doorRows: DoorRow[] = Object.entries(TABLE).map(([principal, line]) => {
  const [force, pickup, medical] = line!.split(/\s+/);
  return {
    principal: principal as PrincipalName,
    force: Number(force),
    pickup: pickup as DoorRow['pickup'],
    medical: medical as DoorRow['medical'],
  };
});
