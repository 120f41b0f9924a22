/**
 * The rooming board (docs/rooming.md "Pages"): rooms as columns, people as cards.
 * - GET  /staff/events/{e}/rooming (`rooms.read`): event admins and series roles get the rooms and
 *   their occupants' names only (board.service `boardRooms`: nothing else about people is loaded);
 *   safeguarding leads and global admins (`rooming.manage`) get every card (age, gender identity,
 *   flags, requests met or not), the unassigned, each room's broken rules, and the forms.
 * - POST …/rooming/plan (`rooming.manage`): the dry run (plan service), shown above the board with
 *   each left-out person's and each unmet request's reason; writes nothing.
 * - POST …/rooming/apply: applies the shown plan (its assignments travel in the form).
 * - GET  …/rooming/check (`rooming.manage`): the card's instant warning (htmx, on choosing a room in
 *   the card's list): the rules the move would break, in words, before anything is sent.
 * - POST …/rooming/move: one person into a room (or none) from the card's select (drag-and-drop fills
 *   the same select, rooming-board.js). A move that breaks a hard rule is not written: the page
 *   answers 422 with the broken rules in words and a reason field; with a reason it is kept as an
 *   override, exactly as `POST /api/v1/events/{e}/rooming/apply` with `override_reason`.
 */
import { Type } from 'typebox';
import type { CtxFor, Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import type { Api } from '../../../http/typed.js';
import { ApiError } from '../../../lib/errors.js';
import { staffText } from '../../../lib/i18n/staff.js';
import { applyRooming } from '../../rooming/apply.service.js';
import { boardFull, boardRooms, moveBreaks } from '../../rooming/board.service.js';
import { planRooming } from '../../rooming/plan.service.js';
import { pageResponses } from '../../web/web.schemas.js';
import { may } from '../nav.js';
import { eventFrame } from '../org-pages.js';
import { cardWords, decodePlan, planWords, roomWords } from './board-view.js';

const read = { action: 'rooms.read', credential: 'session_cookie' } as const;
const manage = { action: 'rooming.manage', credential: 'session_cookie' } as const;
const Id = Type.String({ pattern: '^[0-9]{1,9}$' });
const EventParams = Type.Object({ event_id: Id }, { additionalProperties: false });
const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
const Query = Type.Object(
  { done: Type.Optional(Type.String({ maxLength: 20 })), move: Type.Optional(Id) },
  { additionalProperties: false },
);
const PlanForm = Type.Object(
  { ...Csrf, keep_existing: Type.Optional(Type.String({ maxLength: 10 })) },
  { additionalProperties: false },
);
const ApplyForm = Type.Object(
  { ...Csrf, plan: Type.String({ maxLength: 60_000 }) },
  { additionalProperties: false },
);
const MoveForm = Type.Object(
  {
    ...Csrf,
    participant_event_id: Id,
    room_id: Type.String({ pattern: '^([0-9]{1,9})?$' }),
    override_reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
const CheckQuery = Type.Object(
  {
    _csrf: Type.Optional(Type.String({ maxLength: 200 })),
    participant_event_id: Id,
    room_id: Type.String({ pattern: '^([0-9]{1,9})?$' }),
  },
  { additionalProperties: false },
);
const DONE: Record<string, string> = {
  applied: staffText('rooming_board.the_plan_was_applied_everyone_s'),
  moved: staffText('rooming_board.the_move_was_saved'),
  kept: staffText('rooming_board.the_move_was_kept_with_your'),
};

type Ctx = CtxFor<'rooms.read'> | CtxFor<'rooming.manage'>;

/**
 * Room options the page may carry in the cards' lists (people × (rooms + 1)): up to this, every card
 * has its list; above it (a large event: 2,000 people × 600 rooms would be about 50 MB of options),
 * a card has a "Move …" link that opens the page with that card's list (`?move={id}`), still a
 * select and a Move button, with the keyboard and without JavaScript.
 */
export const INLINE_OPTIONS_MAX = 50_000;

export interface BoardExtra {
  plan?: ReturnType<typeof planWords> | null;
  keepExisting?: boolean;
  warning?: {
    personId: number;
    person: string;
    roomId: number | null;
    room: string;
    rules: string[];
    reason: string;
  };
  errors?: { message: string; field?: string }[];
  notice?: string | null;
  /** The card whose list is open when the lists are not all on the page. */
  moveId?: number | null;
}

/** The board page's data: what the caller may see, and nothing more. */
async function boardData(ctx: Ctx, extra: BoardExtra = {}) {
  const frame = eventFrame(ctx.access, '/rooming', staffText('rooming_board.rooming_board'));
  if (!may(ctx.access, 'rooming.manage')) {
    const rooms = await boardRooms(ctx);
    return {
      ...frame,
      full: false,
      columns: rooms.map((r) => ({ ...roomWords(r), names: r.names })),
      notice: extra.notice ?? null,
    };
  }
  const board = await boardFull(ctx);
  const people = board.unassigned.length + board.columns.reduce((n, c) => n + c.cards.length, 0);
  return {
    ...frame,
    full: true,
    inlineMoves: people * (board.columns.length + 1) <= INLINE_OPTIONS_MAX,
    moveId: extra.moveId ?? null,
    scripts: ['/assets/js/rooming-board.js'],
    columns: board.columns.map((c) => ({ ...roomWords(c), cards: c.cards.map(cardWords), breaks: c.breaks })),
    unassigned: board.unassigned.map(cardWords),
    roomOptions: board.columns.map((c) => ({
      id: c.id,
      label: staffText('rooming_board.room_option', {
        name: c.name,
        used: String(c.used),
        capacity: String(c.capacity),
      }),
    })),
    plan: extra.plan ?? null,
    keepExisting: extra.keepExisting ?? true,
    warning: extra.warning ?? null,
    errors: extra.errors ?? [],
    notice: extra.notice ?? null,
  };
}

export function roomingBoardPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/rooming',
    {
      config: read,
      schema: { hide: true, params: EventParams, querystring: Query, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { done, move } = request.query;
      return reply.page(
        200,
        'staff/rooming-board',
        await boardData(ctx, {
          notice: done ? (DONE[done] ?? null) : null,
          moveId: move ? Number(move) : null,
        }),
      );
    },
  );

  web.post(
    '/staff/events/:event_id/rooming/plan',
    { config: manage, schema: { hide: true, params: EventParams, body: PlanForm, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const keepExisting = request.body.keep_existing === 'true';
      const plan = await planRooming(ctx, { keep_existing: keepExisting });
      const board = await boardFull(ctx);
      const rooms = new Map(board.columns.map((c) => [c.id, c.name]));
      return reply.page(
        200,
        'staff/rooming-board',
        await boardData(ctx, { plan: planWords(plan, board.names, rooms), keepExisting }),
      );
    },
  );

  web.post(
    '/staff/events/:event_id/rooming/apply',
    { config: manage, schema: { hide: true, params: EventParams, body: ApplyForm, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const items = decodePlan(request.body.plan);
      const problem = items === null ? staffText('rooming_board.the_plan_could_not_be_read') : null;
      const res = problem ? { error: problem } : await tryApply(ctx, items ?? []);
      if ('ok' in res)
        return reply.redirect(`/staff/events/${ctx.access.event.id}/rooming?done=applied`, 303);
      return reply.page(
        422,
        'staff/rooming-board',
        await boardData(ctx, { errors: [{ message: res.error }] }),
      );
    },
  );

  web.get(
    '/staff/events/:event_id/rooming/check',
    {
      config: manage,
      schema: { hide: true, params: EventParams, querystring: CheckQuery, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { participant_event_id, room_id } = request.query;
      const check = await moveBreaks(
        ctx,
        Number(participant_event_id),
        room_id === '' ? null : Number(room_id),
      );
      return reply.page(200, 'staff/rooming-check', { check });
    },
  );

  web.post(
    '/staff/events/:event_id/rooming/move',
    { config: manage, schema: { hide: true, params: EventParams, body: MoveForm, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { participant_event_id, room_id, override_reason } = request.body;
      const reason = override_reason?.trim() ?? '';
      const item = {
        participant_event_id: Number(participant_event_id),
        room_id: room_id === '' ? null : Number(room_id),
        ...(reason ? { override_reason: reason } : {}),
      };
      const res = await tryApply(ctx, [item]);
      const base = `/staff/events/${ctx.access.event.id}/rooming`;
      if ('ok' in res)
        return reply.redirect(
          `${base}?done=${reason && res.ok?.overridden ? 'kept' : 'moved'}#person-${item.participant_event_id}`,
          303,
        );
      if (!res.rules)
        return reply.page(
          422,
          'staff/rooming-board',
          await boardData(ctx, { errors: [{ message: res.error }] }),
        );
      const board = await boardFull(ctx);
      const warning = {
        personId: item.participant_event_id,
        person: board.names.get(item.participant_event_id) ?? '',
        roomId: item.room_id,
        room: board.columns.find((c) => c.id === item.room_id)?.name ?? '',
        rules: res.rules,
        reason,
      };
      const errors =
        override_reason !== undefined && !reason
          ? [{ message: staffText('rooming_board.give_a_reason_to_keep_this'), field: 'override-reason' }]
          : [];
      return reply.page(422, 'staff/rooming-board', await boardData(ctx, { warning, errors }));
    },
  );
}

/** Applies; a 422 becomes its message and, for a broken rule, the rules in words. */
async function tryApply(ctx: CtxFor<'rooming.manage'>, items: Parameters<typeof applyRooming>[1]) {
  try {
    return { ok: await applyRooming(ctx, items) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
    const problems = error.extra.problems as { rules: string[] }[] | undefined;
    return { error: error.message, rules: problems?.flatMap((p) => p.rules) ?? null };
  }
}
