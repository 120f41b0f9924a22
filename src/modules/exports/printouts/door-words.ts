/**
 * The door's alerts in words on paper: the door verdicts' attention messages (docs/checkin.md
 * "Door verdicts"), flags only, never medical details, so the list is the same for every role.
 * `already_scanned` is a column of its own (Scanned here) on paper.
 */
import type { Rec } from './table.js';

export const DOOR_MESSAGES = {
  withdrawn: 'Registration withdrawn',
  rejected: 'Registration rejected',
  not_registered: 'Registration not finished',
  awaiting_guardian: 'Waiting for a parent or guardian to complete the form',
  consents_missing: 'Consent form not signed',
  banned: 'On the ban list: call the event lead',
  minor: 'Under 18',
  medical_alert: 'Medical alert: ask the safeguarding lead',
  high_support: 'Needs high support: tell the safeguarding lead',
  not_unaccompanied: 'May not leave alone: hand over only to an authorised adult',
} as const;

/** The alerts of one door-list record, in the door verdicts' order (the minor flag has its own column). */
export function doorAlerts(rec: Rec): string[] {
  const yes = (k: string) => rec[k] === 'true';
  const status = rec.status;
  const minor = yes('minor');
  const raised: [keyof typeof DOOR_MESSAGES, boolean][] = [
    ['withdrawn', status === 'withdrawn'],
    ['rejected', status === 'rejected'],
    ['not_registered', status === 'invited' || status === 'in_progress'],
    ['awaiting_guardian', status === 'awaiting_guardian'],
    ['consents_missing', (status === 'complete' || status === 'awaiting_guardian') && !yes('waiver')],
    ['banned', yes('banned')],
    ['medical_alert', yes('medical')],
    ['high_support', yes('high_support')],
    ['not_unaccompanied', minor && !yes('may_leave')],
  ];
  return raised.filter(([, on]) => on).map(([code]) => DOOR_MESSAGES[code]);
}
