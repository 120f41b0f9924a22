/**
 * Creating series and events as records (used by the CLI, the demo seed and tests). The series-key
 * API for event creation (spec POST /series/{id}/events) builds on createEventRecord.
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { type EventModules, events, scanContexts, series } from '../../db/schema/index.js';
import { conflict, unprocessable } from '../../lib/errors.js';
import { slugify, slugProblem } from '../../lib/slug.js';

export type EventRow = typeof events.$inferSelect;
export type SeriesRow = typeof series.$inferSelect;

/** Defaults for a new event (docs/decisions.md "Series, events and bans"): travel/visa/accommodation/roommate/freedom waivers on. */
export const DEFAULT_MODULES: EventModules = {
  freedom_waivers_enabled: true,
  travel_enabled: true,
  visa_options_enabled: true,
  accommodation_enabled: true,
  roommate_preferences_enabled: true,
  guardian_invites_locked: false,
  nfc_badges_enabled: false,
  nfc_badge_write_on_checkin_enabled: false,
  groups_enabled: false,
  visa_application_url: null,
};

export const DEFAULT_CHECK_IN_CONTEXT = 'Event check-in';

function checkedSlug(slug: string | undefined, name: string): string {
  const value = slug ?? slugify(name);
  const problem = slugProblem(value);
  if (problem) throw unprocessable(problem);
  return value;
}

export async function createSeries(
  tx: Tx,
  input: { name: string; slug?: string; description?: string },
): Promise<SeriesRow> {
  const slug = checkedSlug(input.slug, input.name);
  const [taken] = await tx.select({ id: series.id }).from(series).where(eq(series.slug, slug));
  if (taken) throw unprocessable(`Series slug "${slug}" is already taken`);
  const [row] = await tx
    .insert(series)
    .values({ name: input.name, slug, description: input.description ?? null })
    .returning();
  return row!;
}

export type NewEvent = Omit<typeof events.$inferInsert, 'modules' | 'slug'> & {
  slug?: string;
  modules?: Partial<EventModules>;
};

/** Inserts an event (a draft unless told otherwise) with its default `Event check-in` scan context. */
export async function createEventRecord(tx: Tx, input: NewEvent): Promise<EventRow> {
  const slug = checkedSlug(input.slug, input.name);
  const [taken] = await tx.select({ id: events.id }).from(events).where(eq(events.slug, slug));
  if (taken) throw conflict(`Event slug "${slug}" is already taken`);
  const [row] = await tx
    .insert(events)
    .values({ ...input, slug, modules: { ...DEFAULT_MODULES, ...input.modules } })
    .returning();
  await tx
    .insert(scanContexts)
    .values({ eventId: row!.id, name: DEFAULT_CHECK_IN_CONTEXT, checksIn: true, position: 0 });
  return row!;
}
