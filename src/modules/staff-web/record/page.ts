import type { Deps, UserEventCtx } from '../../../deps.js';
import { type RoutedRequest, routeCtx } from '../../../http/authorize.js';
import { entryOf } from '../../../lib/narrow.js';
import {
  type HistoryFilter,
  historySectionsFor,
  registrationHistory,
} from '../../audit/registration-history.service.js';
import { RESEND_LABEL, resendableGuardians } from '../../dashboard/guardian-links.repo.js';
import { eventConsentTitles } from '../../events/consent-document-text.js';
import { listNotes } from '../../notes/notes.service.js';
import { type ParticipantDetailJson, participantDetail } from '../../participants/participants.service.js';
import { registrantInvitation } from '../../registration/invitations/registrant-invite.service.js';
import { legLocalTimes } from '../../travel/local-time.js';
import { fieldLabel } from '../field-labels.js';
import { localTime, STATUS_HINTS, STATUS_LABELS } from '../format.js';
import { eventNav, may } from '../nav.js';
import { historyItems } from './history-view.js';
import { STAFF_SECTIONS, sectionFor } from './sections.js';
import { type Block, sectionBlocks, statusBlocks, summaryRows, text } from './view.js';

type Detail = ParticipantDetailJson;
/** The context of any participant page route (each names its own action; all are user-only event actions). */
export type PageCtx = UserEventCtx;

export const readCtx = (deps: Deps, request: RoutedRequest<'participants.read'>) => routeCtx(deps, request);

/** `/staff/events/{e}/participants/{pe}`. */
export const participantPath = (eventId: number, pe: number | string) =>
  `/staff/events/${eventId}/participants/${pe}`;

/** The caller's view of registration `pe` (404 page when it is not a registration of the event). */
export async function readDetail(ctx: PageCtx, pe: string): Promise<Detail> {
  const detail = await participantDetail(ctx, { id: Number(pe) });
  // Each leg's times on its airports' clocks, for the travel section's legs table (view.ts).
  for (const travel of [detail.travel_inbound, detail.travel_outbound])
    for (const leg of travel?.legs ?? []) Object.assign(leg, await legLocalTimes(leg));
  return detail;
}

/** May the caller edit anything now? Only a live registration (withdrawn/rejected are 409). */
export const editableStatus = (status: unknown) => status !== 'withdrawn' && status !== 'rejected';

export interface SectionView {
  key: string;
  title: string;
  blocks: Block[];
  /** The caller may edit (some of) this section now. */
  editable: boolean;
}

/** One section's view for this caller, or null when they see nothing of it and may not edit it. */
export function sectionView(ctx: PageCtx, key: string, detail: Detail): SectionView | null {
  const section = STAFF_SECTIONS.find((s) => s.key === key);
  if (!section) return null;
  const editable =
    may(ctx.access, 'participants.edit') &&
    editableStatus(detail.status) &&
    sectionFor(key, ctx.access.visibility) !== null;
  const blocks = sectionBlocks(section, detail);
  if (blocks.length === 0 && !editable) return null;
  return { key, title: section.title, blocks, editable };
}

/** Lifecycle buttons the caller may use on a registration in `status`. */
function lifecycleActions(ctx: PageCtx, status: string): string[] {
  if (!may(ctx.access, 'registrations.manage')) return [];
  if (status === 'rejected') return ['reinstate'];
  if (status === 'withdrawn') return ['reinstate', 'reject'];
  return ['withdraw', 'reject'];
}

/** The guardians whose link the caller may send again (awaiting a guardian only), with button words. */
async function guardianLinks(ctx: PageCtx, pe: number, status: string) {
  if (status !== 'awaiting_guardian' || !may(ctx.access, 'guardians.resend')) return [];
  const rows = await resendableGuardians(ctx.db, ctx.access.event.id, { registrationId: pe });
  return rows.map((g) => ({ ...g, label: RESEND_LABEL[g.state] }));
}

/** An imported registrant's invitation, for callers who may invite; null otherwise. */
async function invitationState(ctx: PageCtx, pe: number, status: string) {
  if (status !== 'invited' || !may(ctx.access, 'participants.invite')) return null;
  return registrantInvitation(ctx, pe);
}

/**
 * The history region's data (template `staff/participant-history`): the items under `filter`, the
 * filter's choices for this caller (sections they may read; who acted, from the unfiltered history)
 * and the newest entry's id, which the region's poll sends back (`latest`) to learn whether
 * anything changed.
 */
export async function historyData(ctx: PageCtx, pe: string, filter: HistoryFilter) {
  const time = (iso: string | null) => localTime(iso, ctx.access.event.timezone);
  const all = await registrationHistory(ctx, Number(pe));
  const shown =
    filter.section || filter.actor ? await registrationHistory(ctx, Number(pe), 100, filter) : all;
  const path = participantPath(ctx.access.event.id, pe);
  return {
    history: {
      path,
      items: historyItems(shown, time),
      latest: all[0]?.id ?? 0,
      filter,
      sections: historySectionsFor(ctx.access.visibility).map((key) => ({ key, label: fieldLabel(key) })),
      actors: [...new Set(all.map((e) => e.actor).filter((a): a is string => a !== null))].sort(),
    },
  };
}

/** Everything the page template reads. */
export async function pageData(ctx: PageCtx, pe: string, detail: Detail, filter: HistoryFilter = {}) {
  const { event } = ctx.access;
  const status = detail.status;
  const { notes } = await listNotes(ctx, pe);
  const time = (iso: string | null) => localTime(iso, event.timezone);
  return {
    title: detail.display_name,
    event,
    nav: eventNav(ctx.access, event.id, '/participants'),
    path: participantPath(event.id, pe),
    detail,
    status,
    statusText: entryOf(STATUS_LABELS, status) ?? status,
    statusHint: entryOf(STATUS_HINTS, status) ?? '',
    guardianLinks: await guardianLinks(ctx, Number(pe), status),
    invitation: await invitationState(ctx, Number(pe), status),
    time,
    summary: summaryRows(detail),
    sections: STAFF_SECTIONS.map((s) => sectionView(ctx, s.key, detail)).filter((s) => s !== null),
    editLocked: !editableStatus(status) && may(ctx.access, 'participants.edit'),
    statusBlocks: statusBlocks(detail, await eventConsentTitles(ctx.db, event.id)),
    lifecycle: lifecycleActions(ctx, status),
    notes: notes.map((n) => ({
      ...n,
      when: text(n.created_at),
      by: n.author?.name || n.author?.email || '—',
    })),
    ...(await historyData(ctx, pe, filter)),
  };
}
