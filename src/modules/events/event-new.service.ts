/**
 * "New event" and "Copy an earlier event" from the staff pages (docs/series-events.md "New event and
 * copy"): the rules of `POST /series/{s}/events` (prepareEvent, insertEvent: a draft, audited
 * `events.create` with the signed-in user as actor) for series owners, organisers and global
 * admins. Problems are named by the form's fields in plain words: a 422 whose `extra.problems` is
 * `[{field, message}]` with `field` one of `name`, `support_email`, `timezone`, `starts_on`,
 * `ends_on`, `location_country`, `source_event_id` (the page puts each message next to its field).
 */
import type { SeriesCtx } from '../../deps.js';
import { ApiError, unprocessable } from '../../lib/errors.js';
import { copyEvent } from './event-copy.service.js';
import { prepareEvent } from './event-create.service.js';
import { isDate } from './event-shift.js';
import { insertInSeries } from './events.service.js';
import type { EventRow } from './records.service.js';

export interface NewEventForm {
  name: string;
  support_email: string;
  timezone: string;
  /** YYYY-MM-DD in the event's time zone, or '' for none yet. */
  starts_on: string;
  ends_on: string;
  location_country: string;
}

export interface CopyEventForm {
  source_event_id: string;
  name: string;
  starts_on: string;
}

interface FieldProblem {
  field: string;
  message: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The service's messages (which name wire fields) in the form's words, by the field they start with. */
const PLAIN: [RegExp, string, string][] = [
  [
    /^support_email must use one of the operator domains \((.*)\); got .*/,
    'support_email',
    'The support email must be an address at $1',
  ],
  [/^support_email.*/s, 'support_email', 'Enter a valid support email address'],
  [/^timezone.*/s, 'timezone', 'Enter a time zone name such as Europe/London'],
  [/^ends_at must not be before starts_at.*/s, 'ends_on', 'The end date must not be before the start date'],
  [/^Cannot derive a slug from the name.*/s, 'name', 'Use a name with letters or digits in it'],
  [/^Event slug.*/s, 'name', 'An event with this name already exists; add the year or a place to the name'],
];

function fieldProblems(problems: FieldProblem[]): ApiError {
  return unprocessable(problems.map((p) => p.message).join('; '), { problems });
}

/** A service 4xx (422/409) as a problem of the form field it concerns; other errors rethrown. */
function asFieldError(error: unknown, fallbackField: string): never {
  if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409)) throw error;
  if (Array.isArray(error.extra.problems)) throw error;
  for (const [pattern, field, message] of PLAIN)
    if (pattern.test(error.message))
      throw fieldProblems([{ field, message: error.message.replace(pattern, message) }]);
  throw fieldProblems([{ field: fallbackField, message: error.message }]);
}

function dateProblem(field: string, value: string, label: string): FieldProblem[] {
  if (value === '' || isDate(value)) return [];
  return [{ field, message: `Enter the ${label} as a date, e.g. 2027-07-10` }];
}

/** Creates a blank draft event in the context's series from the "New event" form. Throws 422 (see above). */
export async function createEventFromForm(ctx: SeriesCtx, form: NewEventForm): Promise<EventRow> {
  const problems: FieldProblem[] = [];
  if (form.name.trim() === '') problems.push({ field: 'name', message: 'Enter the event’s name' });
  if (form.support_email.trim() === '')
    problems.push({ field: 'support_email', message: 'Enter the support email participants can write to' });
  problems.push(...dateProblem('starts_on', form.starts_on, 'start date'));
  problems.push(...dateProblem('ends_on', form.ends_on, 'end date'));
  if (form.ends_on !== '' && form.starts_on === '')
    problems.push({ field: 'starts_on', message: 'Enter the start date as well as the end date' });
  if (problems.length > 0) throw fieldProblems(problems);
  try {
    const prepared = prepareEvent(
      {
        name: form.name,
        support_email: form.support_email,
        ...(form.timezone.trim() ? { timezone: form.timezone } : {}),
        ...(form.starts_on ? { starts_at: form.starts_on } : {}),
        // The end date's last minute, so a one-day event ends after it starts.
        ...(form.ends_on ? { ends_at: `${form.ends_on}T23:59` } : {}),
        location_country: form.location_country,
      },
      ctx.config.operatorDomains,
    );
    return await insertInSeries(ctx, prepared);
  } catch (error) {
    asFieldError(error, 'name');
  }
}

/** Copies an earlier event of the series from the "Copy an earlier event" form. Throws 422 (see above). */
export async function copyEventFromForm(ctx: SeriesCtx, form: CopyEventForm): Promise<EventRow> {
  const problems: FieldProblem[] = [];
  const sourceId = UUID.test(form.source_event_id) ? form.source_event_id.toLowerCase() : null;
  if (sourceId === null) problems.push({ field: 'source_event_id', message: 'Choose the event to copy' });
  if (form.name.trim() === '') problems.push({ field: 'name', message: 'Enter the new event’s name' });
  problems.push(...dateProblem('starts_on', form.starts_on, 'new start date'));
  if (problems.length > 0) throw fieldProblems(problems);
  try {
    return await copyEvent(ctx, { source_event_id: sourceId!, name: form.name, starts_on: form.starts_on });
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404)
      throw fieldProblems([{ field: 'source_event_id', message: 'Choose an event of this series to copy' }]);
    if (error instanceof ApiError && error.message === 'Choose the new start date')
      throw fieldProblems([{ field: 'starts_on', message: 'Choose the new start date' }]);
    if (error instanceof ApiError && /^Missing required fields: support_email/.test(error.message))
      throw fieldProblems([
        { field: 'source_event_id', message: 'That event has no support email: set one in its setup first' },
      ]);
    asFieldError(error, 'name');
  }
}
