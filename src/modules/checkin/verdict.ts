/**
 * The door verdict (docs/checkin.md "Door verdicts"): which attention codes a scan raises and
 * whether it is admitted, admitted with a warning, or refused. Pure: the facts come from one read
 * per scan (door-facts.ts); POST /scans, the bulk replays, the desk and the live feed all use this.
 */

import { entryOf } from '../../lib/narrow.js';
import { ageOn } from '../registration/lifecycle/completion.js';

export const ATTENTION_CODES = [
  'withdrawn',
  'rejected',
  'not_registered',
  'awaiting_guardian',
  'consents_missing',
  'banned',
  'minor',
  'medical_alert',
  'high_support',
  'not_unaccompanied',
  'already_scanned',
] as const;
export type AttentionCode = (typeof ATTENTION_CODES)[number];
export type Verdict = 'admitted' | 'warning' | 'refused';
export type ScanType = 'entry' | 'exit';

/** The refuse list of a `checks_in` context that has none of its own. */
export const DEFAULT_REFUSE: readonly AttentionCode[] = ['withdrawn', 'rejected', 'banned'];

/** What the verdict is computed from: one registration, one context, one scan. */
export interface DoorFacts {
  status: string;
  /** YYYY-MM-DD or null (nobody without a birth date is a minor). */
  date_of_birth: string | null;
  /** The event's first day in its time zone (YYYY-MM-DD). */
  event_start_date: string;
  /** An active ban holds the participant's email. */
  banned: boolean;
  /** The waiver consent (the one everyone signs) is signed. */
  waiver_signed: boolean;
  anaphylaxis: boolean;
  refrigeration: boolean;
  cross_contamination: boolean;
  /** The life-threatening allergies in words (sensitive). */
  allergies: string | null;
  high_support: boolean;
  can_leave_unaccompanied: boolean;
  /** Entry scans of the registration in the context. */
  entries: number;
  /** The newest scan's type in the context (null: none). */
  last_type: ScanType | null;
}

/** Whether the registration's holder is under 18 on the event's first day. */
export function isMinorAtEvent(f: Pick<DoorFacts, 'date_of_birth' | 'event_start_date'>): boolean {
  return f.date_of_birth !== null && ageOn(f.date_of_birth, f.event_start_date) < 18;
}

/** Whether the registration is inside a presence-tracking context (its newest scan is an entry). */
export const isInside = (f: Pick<DoorFacts, 'last_type'>): boolean => f.last_type === 'entry';

/**
 * The facts once reduced to yes/no flags: what the codes are read from, whether at the door
 * (attentionCodes) or on the printed door list (exports/printouts/door-words.ts), so both raise the
 * same codes by the same rules.
 */
export interface AttentionFlags {
  status: string;
  minor: boolean;
  banned: boolean;
  waiver_signed: boolean;
  /** Anaphylaxis risk, medication to refrigerate or a cross-contamination risk. */
  medical: boolean;
  high_support: boolean;
  can_leave_unaccompanied: boolean;
  already_scanned: boolean;
}

/** The attention codes the flags raise, in ATTENTION_CODES order. */
export function codesOfFlags(f: AttentionFlags): AttentionCode[] {
  const raised: Record<AttentionCode, boolean> = {
    withdrawn: f.status === 'withdrawn',
    rejected: f.status === 'rejected',
    not_registered: f.status === 'invited' || f.status === 'in_progress',
    awaiting_guardian: f.status === 'awaiting_guardian',
    consents_missing: (f.status === 'complete' || f.status === 'awaiting_guardian') && !f.waiver_signed,
    banned: f.banned,
    minor: f.minor,
    medical_alert: f.medical,
    high_support: f.high_support,
    not_unaccompanied: f.minor && !f.can_leave_unaccompanied,
    already_scanned: f.already_scanned,
  };
  return ATTENTION_CODES.filter((c) => raised[c]);
}

/**
 * The attention codes of a scan, in ATTENTION_CODES order. `already_scanned` is for entries only:
 * already inside (presence contexts) or any earlier entry (other contexts).
 */
export function attentionCodes(f: DoorFacts, type: ScanType, tracksPresence: boolean): AttentionCode[] {
  return codesOfFlags({
    status: f.status,
    minor: isMinorAtEvent(f),
    banned: f.banned,
    waiver_signed: f.waiver_signed,
    medical: f.anaphylaxis || f.refrigeration || f.cross_contamination,
    high_support: f.high_support,
    can_leave_unaccompanied: f.can_leave_unaccompanied,
    already_scanned: type === 'entry' && (tracksPresence ? isInside(f) : f.entries > 0),
  });
}

/**
 * The verdict: `refused` when an entry raises a code of the context's refuse list, else `warning`
 * when it raises any code, else `admitted`. An exit is never refused (nobody is kept in).
 */
export function verdictOf(codes: readonly string[], refuse: readonly string[], type: ScanType): Verdict {
  if (type === 'entry' && codes.some((c) => refuse.includes(c))) return 'refused';
  return codes.length > 0 ? 'warning' : 'admitted';
}

/** A context's effective refuse list: its own, else DEFAULT_REFUSE for check-in contexts, else none. */
export function effectiveRefuse(context: { refuse: string[] | null; checks_in: boolean }): string[] {
  return context.refuse ?? (context.checks_in ? [...DEFAULT_REFUSE] : []);
}

export const GENERIC_MEDICAL = 'Medical alert: ask the safeguarding lead';

/** Each code in plain words for the person at the door (no sensitive detail). */
export const ATTENTION_MESSAGES: Record<AttentionCode, string> = {
  withdrawn: 'Registration withdrawn',
  rejected: 'Registration rejected',
  not_registered: 'Registration not finished',
  awaiting_guardian: 'Waiting for a parent or guardian to complete the form',
  consents_missing: 'Consent form not signed',
  banned: 'On the ban list: call the event lead',
  minor: 'Under 18',
  medical_alert: GENERIC_MEDICAL,
  high_support: 'Needs high support: tell the safeguarding lead',
  not_unaccompanied: 'May not leave alone: hand over only to an authorised adult',
  already_scanned: 'Already checked in here',
};

/** The specific medical message, for callers who may read sensitive data. */
export function medicalDetail(
  f: Pick<DoorFacts, 'anaphylaxis' | 'refrigeration' | 'cross_contamination' | 'allergies'>,
): string {
  const parts: string[] = [];
  const allergies = f.allergies?.trim();
  if (f.anaphylaxis) parts.push(allergies ? `anaphylaxis risk (${allergies})` : 'anaphylaxis risk');
  if (f.refrigeration) parts.push('medication needs refrigeration');
  if (f.cross_contamination) parts.push('cross-contamination risk');
  return `Medical alert: ${parts.join(', ')}`;
}

export type Attention = { code: string; message: string };

/**
 * The `attention` array of a scan answer. `medical` is the specific medical message for a caller
 * who may read sensitive data, or null (everyone else gets the generic one).
 */
export function attentionJson(
  codes: readonly string[],
  medical: string | null,
  presence = false,
): Attention[] {
  return codes.map((code) => ({
    code,
    message:
      code === 'medical_alert' && medical !== null
        ? medical
        : code === 'already_scanned' && presence
          ? 'Already inside'
          : (entryOf(ATTENTION_MESSAGES, code) ?? code),
  }));
}

/** The error text of a refused scan: the refusing codes in words. */
export function refusalMessage(codes: readonly string[], refuse: readonly string[]): string {
  const why = codes.filter((c) => refuse.includes(c)).map((c) => entryOf(ATTENTION_MESSAGES, c) ?? c);
  return `Not admitted: ${why.join('; ')}`;
}
