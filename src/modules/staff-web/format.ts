/** Display helpers of the staff pages: status labels and times in the event's time zone. */
import type { RegistrationStatus } from '../../db/schema/index.js';

/** Registration statuses in the funnel's order (docs/decisions.md "Registration lifecycle"), as staff read them. */
export const STATUS_LABELS: Record<RegistrationStatus, string> = {
  invited: 'Not started',
  in_progress: 'In progress',
  awaiting_guardian: 'Awaiting guardian',
  complete: 'Complete',
  withdrawn: 'Withdrawn',
  rejected: 'Rejected',
};

/**
 * What each status means, in one sentence, for staff (the participant pages have their own words).
 * "Not started" is a registration imported into the event that nobody has begun; an invitation is
 * the email that lets a person start, listed on the Invitations page as "pending" until accepted
 * (docs/staff-dashboard.md "One word for invited").
 */
export const STATUS_HINTS: Record<RegistrationStatus, string> = {
  invited: 'Imported into this event; the person has not started registering.',
  in_progress: 'The person has started and not yet submitted.',
  awaiting_guardian: 'Submitted; waiting for a parent or guardian to complete their part.',
  complete: 'Registered: everything needed has been given.',
  withdrawn: 'Withdrawn from the event.',
  rejected: 'Rejected by the organisers.',
};

/**
 * A guardian's status as staff read it (docs/staff-dashboard.md "One word for invited"): `invited`
 * is a portal link emailed and not yet opened, never a registration status.
 */
export const GUARDIAN_STATUS_LABELS: Record<string, string> = {
  pending: 'No link sent yet',
  invited: 'Link sent, not yet opened',
  accepted: 'Opened the link, not finished',
  completed: 'Completed',
  declined: 'Declined',
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
  queued: 'Waiting to send',
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened',
  bounced: 'Bounced',
  failed: 'Failed',
  suppressed: 'Not sent: address blocked after a bounce',
};
