/**
 * The participant page's history: one item per audit entry about the registration
 * (audit/registration-history.service.ts), as "when, who, what", fields by their labels
 * (field-labels.ts) and, where the service kept them for this reader, old → new values. The service
 * already removed what the caller may not see (values of fields they may not read, sensitive field
 * names, restricted notes); this only words it (docs/staff-dashboard.md "Participant page and staff edits").
 */

import { staffText } from '../../../lib/i18n/staff.js';
import { entryOf, propOf } from '../../../lib/narrow.js';
import { formatPhone } from '../../../lib/phone.js';
import type { HistoryEntry } from '../../audit/registration-history.service.js';
import { consentTitle } from '../../events/consent-defaults.js';
import { fieldLabel } from '../field-labels.js';
import { STATUS_LABELS } from '../format.js';
import { text } from './view.js';

const VIA: Record<string, string> = {
  guardian_link: staffText('record_history_view.a_guardian_portal_link'),
  webhook: staffText('record_history_view.the_e_signature_provider'),
  cli: staffText('record_history_view.the_command_line'),
  sign_in: 'sign-in',
  job: staffText('record_history_view.muster_scheduled'),
  mobile: staffText('record_history_view.the_muster_app'),
  session: staffText('record_history_view.a_staff_page'),
};
const BY: Record<string, string> = {
  staff_edit: staffText('record_history_view.by_staff'),
  participant: staffText('record_history_view.by_the_participant'),
  guardian: staffText('record_history_view.by_a_guardian'),
  staff: staffText('record_history_view.by_staff'),
  system: staffText('record_history_view.by_muster'),
};

type Time = (iso: string | null) => string;
/** The name the history service gives a field of a section the caller may not read (a wire value). */
const SENSITIVE = 'sensitive section';
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const labelOf = (name: string) =>
  name === SENSITIVE ? staffText('record_history_view.a_sensitive_section') : fieldLabel(name);
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
        item && typeof item === 'object'
          ? text(propOf(item, 'name') ?? staffText('record_history_view.an_entry'))
          : text(item),
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
      return staffText('record_history_view.record_edited', {
        value: m.by ? ` ${BY[String(m.by)] ?? ''}`.trimEnd() : '',
        names: names(m.fields ?? m.sections),
      });
    case 'registrations.transition':
      return m.by
        ? staffText('record_history_view.status_changed_by', {
            from: statusText(m.from),
            to: statusText(m.to),
            by: BY[String(m.by)] ?? fieldLabel(String(m.by)).toLowerCase(),
          })
        : staffText('record_history_view.status_changed', { from: statusText(m.from), to: statusText(m.to) });
    case 'registrations.create':
      return staffText('record_history_view.registration_started_from_an_invitation');
    case 'notes.create':
      return staffText('record_history_view.note_added', {
        value: fieldLabel(text(m.note_type)).toLowerCase(),
        text: text(m.sensitivity),
      });
    case 'consents.sign':
      return staffText('record_history_view.consent_signed', {
        consent_title: consentTitle(text(m.consent_type)),
        value: m.signer ? staffText('record_history_view.by_the', { signer: String(m.signer) }) : '',
      });
    case 'scans.undo':
      return staffText('record_history_view.scans_undone', { text: text(m.deleted_scans) });
    case 'groups.assign':
      return staffText('record_history_view.groups_changed');
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
