/**
 * The `complete` rule (docs/decisions.md "Registration lifecycle"): all required sections present, the
 * waiver consent signed, every guardian completed (minors: under 18 on the event's start date),
 * the freedom waiver signed when that module is on, and every custom consent document the event
 * marked required signed. Facts are loaded in one query; the
 * evaluation is pure so tests can pin it without a database.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import type { EventModules, RegistrationStatus } from '../../../db/schema/index.js';

export interface CompletionFacts {
  status: RegistrationStatus;
  submitted: boolean;
  legalFirstName: string;
  legalLastName: string;
  dateOfBirth: string | null;
  /** The event's first day in its own time zone (YYYY-MM-DD), or today when it has no start. */
  eventStartDate: string;
  modules: EventModules;
  consents: { type: string; status: string }[];
  guardians: { status: string; email: string | null }[];
  emergencyContactCount: number;
  /** The event's own consent documents marked required (their `consent_type`s); absent = none. */
  customRequired?: string[];
}

/** Whole years between a birth date and `on` (both YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, on: string): number {
  const [by = 0, bm = 0, bd = 0] = dateOfBirth.split('-').map(Number);
  const [y = 0, m = 0, d = 0] = on.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** A minor is under 18 on the event's start date; without a birth date nobody is a minor. */
export function isMinor(facts: Pick<CompletionFacts, 'dateOfBirth' | 'eventStartDate'>): boolean {
  return facts.dateOfBirth !== null && ageOn(facts.dateOfBirth, facts.eventStartDate) < 18;
}

/**
 * The required sections still missing, by wire name: `personal.legal_first_name`,
 * `personal.legal_last_name`, `personal.date_of_birth`, `emergency_contacts` (at least one, the
 * registration's own or a guardian's) and, for minors, `guardians` (at least one with an email).
 */
export function missingSections(facts: CompletionFacts): string[] {
  const missing: string[] = [];
  if (!facts.legalFirstName.trim()) missing.push('personal.legal_first_name');
  if (!facts.legalLastName.trim()) missing.push('personal.legal_last_name');
  if (!facts.dateOfBirth) missing.push('personal.date_of_birth');
  if (facts.emergencyContactCount === 0) missing.push('emergency_contacts');
  if (isMinor(facts) && !facts.guardians.some((g) => g.email)) missing.push('guardians');
  return missing;
}

/**
 * The consent types a registration needs: `waiver`, plus `freedom_waiver` when that module is on,
 * plus the event's own documents marked required (`customRequired`, docs/decisions.md "Consents").
 */
export function requiredConsentTypes(
  modules: EventModules,
  customRequired: readonly string[] = [],
): string[] {
  const builtIn = modules.freedom_waivers_enabled ? ['waiver', 'freedom_waiver'] : ['waiver'];
  return [...builtIn, ...customRequired];
}

/** Where a submitted registration belongs: `complete`, else `awaiting_guardian` (minor) or `in_progress`. */
export function completionStatus(facts: CompletionFacts): 'complete' | 'awaiting_guardian' | 'in_progress' {
  const minor = isMinor(facts);
  const signed = new Set(facts.consents.filter((c) => c.status === 'signed').map((c) => c.type));
  const consentsDone = requiredConsentTypes(facts.modules, facts.customRequired).every((t) => signed.has(t));
  const guardiansDone =
    !minor || (facts.guardians.length > 0 && facts.guardians.every((g) => g.status === 'completed'));
  if (missingSections(facts).length === 0 && consentsDone && guardiansDone) return 'complete';
  return minor ? 'awaiting_guardian' : 'in_progress';
}

/**
 * A `complete` registration leaves `complete` only when something it relied on was withdrawn: a
 * required consent `declined` or `expired`, or a guardian `declined` (not merely because imported
 * data lacks a record the rule would ask for today).
 */
export function lostCompletion(facts: CompletionFacts): boolean {
  const required = new Set(requiredConsentTypes(facts.modules, facts.customRequired));
  return (
    facts.consents.some((c) => required.has(c.type) && (c.status === 'declined' || c.status === 'expired')) ||
    facts.guardians.some((g) => g.status === 'declined')
  );
}

/**
 * SQL for the `consent_type`s of an event's own documents whose current version is marked
 * required, as a JSON array (`[]` when none); `eventId` is an SQL expression.
 */
export function customRequiredSql(eventId: SQL) {
  return sql`coalesce((SELECT json_agg(d.consent_type ORDER BY d.consent_type) FROM event_consent_documents d
     WHERE d.event_id = ${eventId} AND d.required
       AND d.version = (SELECT max(x.version) FROM event_consent_documents x
                         WHERE x.event_id = d.event_id AND x.consent_type = d.consent_type)), '[]'::json)`;
}

type FactsRow = {
  status: RegistrationStatus;
  submitted: boolean;
  legal_first_name: string;
  legal_last_name: string;
  date_of_birth: string | null;
  event_start_date: string;
  modules: EventModules;
  consents: { type: string; status: string }[];
  guardians: { status: string; email: string | null }[];
  contacts: number;
  custom_required: string[];
};

/** Loads the facts of one registration (null when it does not exist). */
export async function loadCompletionFacts(tx: Tx, registrationId: number): Promise<CompletionFacts | null> {
  const res = await tx.execute<FactsRow>(sql`
    SELECT r.status, r.submitted_at IS NOT NULL AS submitted,
           p.legal_first_name, p.legal_last_name, p.date_of_birth::text AS date_of_birth,
           to_char(coalesce(e.starts_at, now()) AT TIME ZONE e.timezone, 'YYYY-MM-DD') AS event_start_date,
           e.modules,
           coalesce((SELECT json_agg(json_build_object('type', c.consent_type, 'status', c.status))
                       FROM consents c WHERE c.registration_id = r.id), '[]'::json) AS consents,
           coalesce((SELECT json_agg(json_build_object('status', g.status, 'email', g.email))
                       FROM guardians g WHERE g.registration_id = r.id), '[]'::json) AS guardians,
           (SELECT count(*)::int FROM emergency_contacts ec WHERE ec.registration_id = r.id) AS contacts,
           ${customRequiredSql(sql`e.id`)} AS custom_required
      FROM registrations r
      JOIN people p ON p.id = r.person_id
      JOIN events e ON e.id = r.event_id
     WHERE r.id = ${registrationId}`);
  const row = res.rows[0];
  if (!row) return null;
  return {
    status: row.status,
    submitted: row.submitted,
    legalFirstName: row.legal_first_name,
    legalLastName: row.legal_last_name,
    dateOfBirth: row.date_of_birth,
    eventStartDate: row.event_start_date,
    modules: row.modules,
    consents: row.consents,
    guardians: row.guardians,
    emergencyContactCount: row.contacts,
    customRequired: row.custom_required,
  };
}
