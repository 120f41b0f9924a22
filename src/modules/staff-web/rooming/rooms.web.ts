/**
 * The Rooms page (docs/rooming.md "Pages"), over the rooms service behind
 * /api/v1/events/{e}/rooms:
 * - GET  /staff/events/{e}/rooms (`rooms.read`: event admins, series roles, safeguarding leads,
 *   global admins): the inventory and each room's occupants by name; `?edit={id}` fills the form
 *   with that room. The forms show only to callers with `rooming.manage`.
 * - POST /staff/events/{e}/rooms: add a room; POST …/rooms/{id}: change it; POST …/rooms/{id}/delete
 *   (`rooming.manage`: safeguarding leads, global admins). A 409/422 re-renders the page with the
 *   message next to the field it names; audited by the service as the API is.
 * - POST …/rooms/import (rooms-import.web.ts, registered on its own): CSV pasted or uploaded.
 */
import { Type } from 'typebox';
import type { CtxFor, Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import type { Api } from '../../../http/typed.js';
import { staffText } from '../../../lib/i18n/staff.js';
import { createRoom, deleteRoom, listRooms, updateRoom } from '../../rooming/rooms.service.js';
import { FormBody, pageResponses } from '../../web/web.schemas.js';
import { may } from '../nav.js';
import { attempt, eventFrame } from '../org-pages.js';
import {
  agesOf,
  DESIGNATION_WORDS,
  EMPTY_ROOM,
  FormProblem,
  fieldOfMessage,
  formOf,
  inputOf,
  type RoomForm,
  readForm,
  TYPE_WORDS,
} from './room-form.js';

const read = { action: 'rooms.read', credential: 'session_cookie' } as const;
const manage = { action: 'rooming.manage', credential: 'session_cookie' } as const;
const Id = Type.String({ pattern: '^[0-9]{1,9}$' });
export const EventParams = Type.Object({ event_id: Id }, { additionalProperties: false });
const RoomParams = Type.Object({ event_id: Id, id: Id }, { additionalProperties: false });
const Query = Type.Object(
  { edit: Type.Optional(Id), done: Type.Optional(Type.String({ maxLength: 20 })) },
  { additionalProperties: false },
);
const DONE: Record<string, string> = {
  created: staffText('rooms.the_room_was_added'),
  updated: staffText('rooms.the_room_was_changed'),
  deleted: staffText('rooms.the_room_was_deleted'),
  imported: staffText('rooms.the_rooms_were_imported'),
};

export interface RoomsPageExtra {
  values?: RoomForm;
  editId?: number | null;
  fieldErrors?: Record<string, string>;
  errors?: { message: string; field?: string }[];
  csv?: string;
  notice?: string | null;
}

/** The rooms page's data; `extra` carries a failed form's values and messages. */
export async function roomsPageData(ctx: CtxFor<'rooms.read'>, extra: RoomsPageExtra = {}) {
  const { rooms } = await listRooms(ctx);
  const editing = extra.editId ? rooms.find((r) => r.id === extra.editId) : undefined;
  return {
    ...eventFrame(ctx.access, '/rooms', staffText('rooms.rooms')),
    canManage: may(ctx.access, 'rooming.manage'),
    rooms: rooms.map((r) => ({
      ...r,
      typeWords: TYPE_WORDS[r.type],
      designationWords: DESIGNATION_WORDS[r.gender_designation],
      ages: agesOf(r),
      nightsWords: r.nights ? r.nights.join(', ') : staffText('rooms.every_night'),
    })),
    editing: editing ?? null,
    values: extra.values ?? (editing ? formOf(editing) : EMPTY_ROOM),
    types: TYPE_WORDS,
    designations: DESIGNATION_WORDS,
    fieldErrors: extra.fieldErrors ?? {},
    errors: extra.errors ?? [],
    csv: extra.csv ?? '',
    notice: extra.notice ?? null,
  };
}

export function roomsPages(web: Api, deps: Deps): void {
  web.get(
    '/staff/events/:event_id/rooms',
    {
      config: read,
      schema: { hide: true, params: EventParams, querystring: Query, response: pageResponses },
    },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const { edit, done } = request.query;
      const editId = edit && may(ctx.access, 'rooming.manage') ? Number(edit) : null;
      return reply.page(
        200,
        'staff/rooms',
        await roomsPageData(ctx, { editId, notice: done ? (DONE[done] ?? null) : null }),
      );
    },
  );

  /** Saves the form (create, or update with `id`); a bad value re-renders next to its field. */
  async function save(ctx: CtxFor<'rooming.manage'>, body: FormBody, id: string | null) {
    const values = readForm(body);
    const res = await attempt(async () => {
      const input = inputOf(values);
      return id === null ? createRoom(ctx, input) : updateRoom(ctx, id, input);
    }).catch((error) => {
      if (error instanceof FormProblem) return { error: error.message, field: error.field };
      throw error;
    });
    if ('ok' in res) return null;
    const fieldName = 'field' in res ? res.field : fieldOfMessage(res.error);
    const status = res.error.includes('already exists') ? 409 : 422;
    const data = await roomsPageData(ctx, {
      values,
      editId: id === null ? null : Number(id),
      fieldErrors: { [`room-${fieldName}`]: res.error },
      errors: [{ message: res.error, field: `room-${fieldName}` }],
    });
    return { status, data };
  }

  web.post(
    '/staff/events/:event_id/rooms',
    { config: manage, schema: { hide: true, params: EventParams, body: FormBody, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const failed = await save(ctx, request.body, null);
      if (failed) return reply.page(failed.status, 'staff/rooms', failed.data);
      return reply.redirect(`/staff/events/${ctx.access.event.id}/rooms?done=created`, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/rooms/:id',
    { config: manage, schema: { hide: true, params: RoomParams, body: FormBody, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const failed = await save(ctx, request.body, request.params.id);
      if (failed) return reply.page(failed.status, 'staff/rooms', failed.data);
      return reply.redirect(`/staff/events/${ctx.access.event.id}/rooms?done=updated`, 303);
    },
  );

  web.post(
    '/staff/events/:event_id/rooms/:id/delete',
    { config: manage, schema: { hide: true, params: RoomParams, response: pageResponses } },
    async (request, reply) => {
      const ctx = routeCtx(deps, request);
      const res = await attempt(() => deleteRoom(ctx, request.params.id));
      if ('ok' in res) return reply.redirect(`/staff/events/${ctx.access.event.id}/rooms?done=deleted`, 303);
      return reply.page(409, 'staff/rooms', await roomsPageData(ctx, { errors: [{ message: res.error }] }));
    },
  );
}
