/**
 * The history of one registration for the staff participant page: the audit
 * entries about it (target the registration, one of its consents, or naming it in
 * `metadata.registration_id`), newest first, as "who did what, when, to which fields". Never
 * values: metadata passes the audit trail's allow-list (METADATA_KEYS), and for a caller who may
 * not see sensitive data, the names of sensitive fields (access/record-write.ts) are replaced by
 * `sensitive section` and entries about restricted notes are left out (the notes policy); for a
 * caller who may not see PII (`limited`), addresses in metadata are left out.
 */
import { sql } from 'drizzle-orm';
import type { Visibility } from '../../access/policy.js';
import { mayReadField, SENSITIVE_WRITE_KEYS } from '../../access/record-write.js';
import type { EventCtx } from '../../deps.js';
import { isRecord, propOf } from '../../lib/narrow.js';
import { isoSql } from '../../lib/time.js';
import { METADATA_KEYS } from './audit-log.service.js';

export interface HistoryEntry {
  id: number;
  action: string;
  /** ISO 8601 UTC. */
  created_at: string;
  /** The user who acted (name, else email), or null (guardian link, webhook, system). */
  actor: string | null;
  /** How they acted: `mobile`, `session`, `cli`, `guardian_link`, `webhook`, … */
  via: string | null;
  /** Allow-listed metadata (identifiers, field names, statuses, counts). */
  metadata: Record<string, unknown>;
  /**
   * A record edit's changed fields: `from`/`to` (old and new value) only for a field the caller may
   * read (access/record-write.ts `mayReadField`) and that is not sensitive (sensitive values are
   * never kept); without them the field only "changed". A sensitive
   * field's name is `sensitive section` for a caller without the sensitive grant. Empty for other
   * entries and for edits recorded before values were kept.
   */
  changes: HistoryChange[];
}

export interface HistoryChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

/** Filters of the history: a section (HISTORY_SECTIONS key) and/or who acted (name or email, case-insensitive part). */
export interface HistoryFilter {
  section?: string;
  actor?: string;
}

interface Row extends Record<string, unknown> {
  id: number | string;
  action: string;
  created_at: string;
  actor: string | null;
  via: string | null;
  metadata: Record<string, unknown> | null;
}

const SENSITIVE_HIDDEN = 'sensitive section';

function hideSensitive(names: unknown): unknown {
  if (!Array.isArray(names)) return names;
  const out = names.map((n) =>
    typeof n === 'string' && SENSITIVE_WRITE_KEYS.includes(n.split('.')[0]!) ? SENSITIVE_HIDDEN : n,
  );
  return [...new Set(out)];
}

/** The caller's view of a record edit's stored `changes` (see HistoryEntry.changes). */
function changesFor(raw: unknown, v: Visibility): HistoryChange[] {
  if (!Array.isArray(raw)) return [];
  const out: HistoryChange[] = [];
  const list: unknown[] = raw;
  for (const c of list) {
    const field = String(propOf(c, 'field') ?? '');
    // A sensitive field is stored by name only (own-record/apply.ts): "changed" for every reader.
    if (mayReadField(field, v))
      out.push(
        isRecord(c) && ('from' in c || 'to' in c)
          ? { field, from: c.from ?? null, to: c.to ?? null }
          : { field },
      );
    else if (!v.sensitive && SENSITIVE_WRITE_KEYS.includes(field.split('.')[0]!)) {
      if (!out.some((x) => x.field === SENSITIVE_HIDDEN)) out.push({ field: SENSITIVE_HIDDEN });
    } else out.push({ field });
  }
  return out;
}

/**
 * The history's sections (its filter), each with the record names that belong to it (a field path's
 * first part) or the action prefix of its entries (`registrations.transition`, `notes.`, `consents.`).
 */
export const HISTORY_SECTIONS: Readonly<
  Record<string, { names: readonly string[]; actions: readonly string[] }>
> = {
  status: { names: [], actions: ['registrations.transition', 'registrations.create'] },
  personal: { names: ['personal', 'phone', 'pronouns'], actions: [] },
  medical: {
    names: [
      'medical_detail',
      'allergies',
      'medical_conditions',
      'medications',
      'life_threatening_allergies',
      'has_anaphylaxis_risk',
      'requires_refrigeration',
    ],
    actions: [],
  },
  dietary: { names: ['dietary_detail', 'diet_type', 'cross_contamination_risk'], actions: [] },
  accessibility: { names: ['accessibility'], actions: [] },
  safeguarding: { names: ['safeguarding_detail'], actions: [] },
  accommodation: { names: ['accommodation'], actions: [] },
  travel: { names: ['travel_inbound', 'travel_outbound'], actions: [] },
  emergency_contacts: { names: ['emergency_contacts'], actions: [] },
  guardians: { names: ['guardians'], actions: ['guardians.'] },
  consents: { names: [], actions: ['consents.'] },
  notes: { names: [], actions: ['notes.'] },
};

/** The history sections a caller with visibility `v` may filter by (those whose fields they may read). */
export const historySectionsFor = (v: Visibility): string[] =>
  Object.entries(HISTORY_SECTIONS)
    .filter(([, s]) => s.names.every((n) => mayReadField(n, v)))
    .map(([key]) => key);

/** Does the entry touch history section `section`? */
function touches(e: HistoryEntry, section: string): boolean {
  const s = HISTORY_SECTIONS[section];
  if (!s) return false;
  const names = [e.metadata.fields, e.metadata.sections].flatMap((v) => (Array.isArray(v) ? v : []));
  if (names.some((n) => s.names.includes(String(n).split('.')[0]!))) return true;
  return s.actions.some((a) => e.action === a || (a.endsWith('.') && e.action.startsWith(a)));
}

/**
 * At most `limit` entries about registration `registrationId` of the authorised event, optionally
 * only those touching `filter.section` and/or whose actor's name or email contains `filter.actor`
 * (case-insensitive). A section the caller may not read matches nothing they could not already see:
 * the filter runs on the entries as this caller sees them.
 */
export async function registrationHistory(
  ctx: EventCtx,
  registrationId: number,
  limit = 100,
  filter: HistoryFilter = {},
): Promise<HistoryEntry[]> {
  const id = String(registrationId);
  const res = await ctx.db.execute<Row>(
    sql`SELECT a.id, a.action, ${isoSql('a.created_at')} AS created_at,
               COALESCE(NULLIF(u.name, ''), u.email) AS actor, a.credential_kind AS via, a.metadata
          FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
         WHERE a.event_id = ${ctx.access.event.id}
           AND ((a.target_type = 'registration' AND a.target_id = ${id})
             OR a.metadata->>'registration_id' = ${id}
             OR (a.target_type = 'consent' AND a.target_id IN
                  (SELECT c.id::text FROM consents c WHERE c.registration_id = ${registrationId})))
         ORDER BY a.id DESC LIMIT ${limit}`,
  );
  const sensitive = ctx.access.visibility.sensitive;
  const entries = res.rows
    .filter((r) => sensitive || r.metadata?.sensitivity !== 'restricted')
    .map((r) => {
      const metadata = Object.fromEntries(
        Object.entries(r.metadata ?? {}).filter(([k]) => METADATA_KEYS.has(k)),
      );
      // An address in metadata (e.g. a guardian's invitation) is PII: hidden from `limited`.
      if (!ctx.access.visibility.pii) delete metadata.email;
      if (!sensitive) {
        for (const key of ['fields', 'sections'])
          if (key in metadata) metadata[key] = hideSensitive(metadata[key]);
      }
      return {
        id: Number(r.id),
        action: r.action,
        created_at: r.created_at,
        actor: r.actor,
        via: r.via,
        metadata,
        changes: changesFor(r.metadata?.changes, ctx.access.visibility),
      };
    });
  const actor = filter.actor?.trim().toLowerCase();
  return entries.filter(
    (e) =>
      (!filter.section || touches(e, filter.section)) &&
      (!actor || (e.actor ?? e.via ?? '').toLowerCase().includes(actor)),
  );
}
