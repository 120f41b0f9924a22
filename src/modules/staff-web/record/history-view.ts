/**
 * The participant page's history table: one row per audit entry about the registration
 * (audit/registration-history.service.ts), as "when, who, what". The service already removed
 * values and, per caller, sensitive field names and restricted notes; this only words it.
 */
import type { HistoryEntry } from '../../audit/registration-history.service.js';
import { text } from './view.js';

const VIA: Record<string, string> = {
  guardian_link: 'a guardian (portal link)',
  webhook: 'the e-signature provider',
  cli: 'the command line',
  sign_in: 'sign-in',
};

const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : text(v));

/** What the entry did, in words; names fields and statuses, never values. */
export function describe(e: HistoryEntry): string {
  const m = e.metadata;
  switch (e.action) {
    case 'registrations.record.update':
      return `Record edited${m.by === 'staff_edit' ? ' by staff' : ''}: ${list(m.fields ?? m.sections)}`;
    case 'registrations.transition':
      return `Status ${text(m.from)} → ${text(m.to)}${m.by ? ` (${String(m.by).replace('_', ' ')})` : ''}`;
    case 'registrations.create':
      return 'Registration started from an invitation';
    case 'notes.create':
      return `Note added (${text(m.note_type)}, ${text(m.sensitivity)})`;
    case 'consents.sign':
      return `Consent signed: ${text(m.consent_type)}${m.signer ? ` by the ${String(m.signer)}` : ''}`;
    case 'scans.undo':
      return `Scans undone: ${text(m.deleted_scans)}`;
    case 'groups.assign':
      return 'Groups changed';
    default:
      return e.action.replace(/[._]/g, ' ');
  }
}

/** `[when, who, what]` rows, newest first. */
export function historyRows(entries: HistoryEntry[]): string[][] {
  return entries.map((e) => [
    text(e.created_at),
    e.actor ?? (e.via ? (VIA[e.via] ?? e.via) : 'Muster'),
    describe(e),
  ]);
}
