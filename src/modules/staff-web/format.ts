/** Display helpers of the staff pages: status labels and times in the event's time zone. */
import type { RegistrationStatus } from '../../db/schema/index.js';

/** Registration statuses in the funnel's order (docs/decisions.md "Registration lifecycle"), as staff read them. */
export const STATUS_LABELS: Record<RegistrationStatus, string> = {
  invited: 'Invited',
  in_progress: 'In progress',
  awaiting_guardian: 'Awaiting guardian',
  complete: 'Complete',
  withdrawn: 'Withdrawn',
  rejected: 'Rejected',
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
