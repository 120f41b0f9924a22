/** Display helpers of the staff pages: status labels and times in the event's time zone. */
import type { RegistrationStatus } from '../../db/schema/index.js';
import { staffText } from '../../lib/i18n/staff.js';

/** Registration statuses in the funnel's order (docs/decisions.md "Registration lifecycle"), as staff read them. */
export const STATUS_LABELS: Record<RegistrationStatus, string> = {
  invited: staffText('format.not_started'),
  in_progress: staffText('format.in_progress'),
  awaiting_guardian: staffText('format.awaiting_guardian'),
  complete: staffText('format.complete'),
  withdrawn: staffText('format.withdrawn'),
  rejected: staffText('format.rejected'),
};

/**
 * What each status means, in one sentence, for staff (the participant pages have their own words).
 * "Not started" is a registration imported into the event that nobody has begun; an invitation is
 * the email that lets a person start, listed on the Invitations page as "pending" until accepted
 * (docs/staff-dashboard.md "One word for invited").
 */
export const STATUS_HINTS: Record<RegistrationStatus, string> = {
  invited: staffText('format.imported_into_this_event_the_person'),
  in_progress: staffText('format.the_person_has_started_and_not'),
  awaiting_guardian: staffText('format.submitted_waiting_for_a_parent_or'),
  complete: staffText('format.registered_everything_needed_has_been_given'),
  withdrawn: staffText('format.withdrawn_from_the_event'),
  rejected: staffText('format.rejected_by_the_organisers'),
};

/**
 * A guardian's status as staff read it (docs/staff-dashboard.md "One word for invited"): `invited`
 * is a portal link emailed and not yet opened, never a registration status.
 */
export const GUARDIAN_STATUS_LABELS: Record<string, string> = {
  pending: staffText('format.no_link_sent_yet'),
  invited: staffText('format.link_sent_not_yet_opened'),
  accepted: staffText('format.opened_the_link_not_finished'),
  completed: staffText('format.completed'),
  declined: staffText('format.declined'),
};

/** One formatter per time zone (building an Intl.DateTimeFormat costs far more than using one). */
const FORMATTERS = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let f = FORMATTERS.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      f = null;
    }
    FORMATTERS.set(timeZone, f);
  }
  return f;
}

/** `2026-07-10 09:00` in `timeZone` for an ISO instant; null → ''. An unknown zone shows UTC. */
export function localTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const f = formatterFor(timeZone);
  if (!f) return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  const parts = f.formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/**
 * An email's delivery state (email_log `status`) as staff read it: the Emails page and each
 * announcement's recipients (docs/email.md "Emails sent").
 */
export const EMAIL_STATE_LABELS: Record<string, string> = {
  queued: staffText('format.waiting_to_send'),
  sent: staffText('format.sent'),
  delivered: staffText('format.delivered'),
  opened: staffText('format.opened'),
  bounced: staffText('format.bounced'),
  failed: staffText('format.failed'),
  suppressed: staffText('format.not_sent_address_blocked_after_a'),
};
