/**
 * The door's alerts in words on paper: the same codes by the same rules as the door verdicts
 * (checkin/verdict.ts `codesOfFlags`, docs/checkin.md "Door verdicts"), in the same words as the
 * desk and the scan answers (`ATTENTION_MESSAGES`): one source. Flags only, never medical details,
 * so the list is the same for every role. On paper `minor` (Under 18) and `already_scanned`
 * (Scanned here) are columns of their own, not alerts.
 */
import { ATTENTION_MESSAGES, codesOfFlags } from '../../checkin/verdict.js';
import type { Rec } from './table.js';

/** The alerts of one door-list record, in the door verdicts' order and words. */
export function doorAlerts(rec: Rec): string[] {
  const yes = (k: string) => rec[k] === 'true';
  const codes = codesOfFlags({
    status: rec.status ?? '',
    minor: yes('minor'),
    banned: yes('banned'),
    waiver_signed: yes('waiver'),
    medical: yes('medical'),
    high_support: yes('high_support'),
    can_leave_unaccompanied: yes('may_leave'),
    already_scanned: false,
  });
  return codes.filter((code) => code !== 'minor').map((code) => ATTENTION_MESSAGES[code]);
}
