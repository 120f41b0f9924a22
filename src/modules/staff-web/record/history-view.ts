/**
 * The participant page's history: one item per audit entry about the registration
 * (audit/registration-history.service.ts), as "when, who, what", fields by their labels
 * (field-labels.ts) and, where the service kept them for this reader, old → new values. The service
 * already removed what the caller may not see (values of fields they may not read, sensitive field
 * names, restricted notes); this only words it (docs/staff-dashboard.md "Participant page and staff edits").
 */

import { entryOf, propOf } from '../../../lib/narrow.js';
import { formatPhone } from '../../../lib/phone.js';
import type { HistoryEntry } from '../../audit/registration-history.service.js';
import { consentTitle } from '../../events/consent-defaults.js';
import { fieldLabel } from '../field-labels.js';
import { STATUS_LABELS } from '../format.js';
import { text } from './view.js';

const VIA: Record<string, string> = {
  guardian_link: 'a guardian (portal link)',
  webhook: 'the e-signature provider',
  cli: 'the command line',
  sign_in: 'sign-in',
  job: 'Muster (scheduled)',
  mobile: 'the Muster app',
  session: 'a staff page',
};
const BY: Record<string, string> = {
  staff_edit: 'by staff',
  participant: 'by the participant',
  guardian: 'by a guardian',
  staff: 'by staff',
  system: 'by Muster',
};

type Time = (iso: string | null) => string;
const SENSITIVE = 'sensitive section';
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const labelOf = (name: string) => (name === SENSITIVE ? 'A sensitive section' : fieldLabel(name));
const names = (v: unknown) => (Array.isArray(v) ? v.map((n) => labelOf(String(n))).join(', ') : text(v));
const statusText = (s: unknown) => entryOf(STATUS_LABELS, s) ?? text(s);

/** One value as a person reads it: phones formatted, instants in the event's zone, lists and objects in words. */
export function valueText(field: string, value: unknown, time: Time): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return time(value);
    return field === 'phone' || field.endsWith('.phone') ? formatPhone(value) : value;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    return value
      .map((item) =>
        item && typeof item === 'object' ? text(propOf(item, 'name') ?? 'an entry') : text(item),
      )
      .join(', ');
  }
  if (typeof value === 'object') {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined && v !== '' && v !== false)
      .map(([k, v]) => `${fieldLabel(`${field}.${k}`)}: ${valueText(`${field}.${k}`, v, time)}`);
    return parts.length > 0 ? parts.join('; ') : '(empty)';
  }
  return text(value);
}

/** What the entry did, in words; field names by their labels. */
export function describe(e: HistoryEntry): string {
  const m = e.metadata;
  switch (e.action) {
    case 'registrations.record.update':
      return `Record edited${m.by ? ` ${BY[String(m.by)] ?? ''}`.trimEnd() : ''}: ${names(m.fields ?? m.sections)}`;
    case 'registrations.transition':
      return `Status ${statusText(m.from)} → ${statusText(m.to)}${m.by ? ` (${BY[String(m.by)] ?? fieldLabel(String(m.by)).toLowerCase()})` : ''}`;
    case 'registrations.create':
      return 'Registration started from an invitation';
    case 'notes.create':
      return `Note added (${fieldLabel(text(m.note_type)).toLowerCase()}, ${text(m.sensitivity)})`;
    case 'consents.sign':
      return `Consent signed: ${consentTitle(text(m.consent_type))}${m.signer ? ` by the ${String(m.signer)}` : ''}`;
    case 'scans.undo':
      return `Scans undone: ${text(m.deleted_scans)}`;
    case 'groups.assign':
      return 'Groups changed';
    default:
      return fieldLabel(e.action.replace(/\./g, ' '));
  }
}

export interface HistoryItem {
  id: number;
  when: string;
  who: string;
  what: string;
  /** Each changed field: its label, and `from`/`to` only when the reader may see the values. */
  changes: { label: string; from?: string; to?: string }[];
}

/** The history items, newest first. */
export function historyItems(entries: HistoryEntry[], time: Time): HistoryItem[] {
  return entries.map((e) => ({
    id: e.id,
    when: time(e.created_at),
    who: e.actor ?? (e.via ? (VIA[e.via] ?? fieldLabel(e.via)) : 'Muster'),
    what: describe(e),
    changes: e.changes.map((c) =>
      'from' in c
        ? {
            label: labelOf(c.field),
            from: valueText(c.field, c.from, time),
            to: valueText(c.field, c.to, time),
          }
        : { label: labelOf(c.field) },
    ),
  }));
}
