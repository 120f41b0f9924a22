/**
 * Staff notes on a registration (docs/decisions.md "Notes"): users with participants access read and
 * write them; `restricted` notes are read only by global admins and the event's safeguarding leads
 * (the callers whose visibility includes sensitive data). Creating a note is audited (type and
 * sensitivity only, never the content) and bumps the registration's `updated_at`.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { one } from '../../db/rows.js';
import type { UserEventCtx } from '../../deps.js';
import { notFound, unprocessable } from '../../lib/errors.js';
import { isoSqlText } from '../../lib/time.js';
import { recordAudit } from '../audit/audit.service.js';
import { touchRegistration } from '../participants/record/touch.js';
import { type CreateNoteInput, MAX_NOTE_LENGTH, type NoteJson } from './notes.schemas.js';

export const PARTICIPANT_NOT_FOUND = 'Participant not found for this event';
export const BLANK_CONTENT = 'Note content cannot be blank';
const INT = /^[0-9]{1,9}$/;

/**
 * The registration id named by the raw `{participant_event_id}` path segment within the
 * authorised event; 404 `Participant not found for this event` when it is malformed or elsewhere.
 */
export async function registrationInEvent(ctx: UserEventCtx, raw: string): Promise<number> {
  const event = ctx.access.event;
  if (!INT.test(raw)) throw notFound(PARTICIPANT_NOT_FOUND);
  const res = await ctx.db.execute<{ id: number }>(
    sql`SELECT id FROM registrations WHERE id = ${Number(raw)} AND event_id = ${event.id}`,
  );
  if (res.rows.length === 0) throw notFound(PARTICIPANT_NOT_FOUND);
  return one(res.rows).id;
}

type NoteRow = NoteJson & {
  author_id: number | null;
  author_name: string | null;
  author_email: string | null;
};

const NOTE_COLUMNS = sql.raw(`n.id::int AS id, n.content, n.note_type, n.sensitivity,
  ${isoSqlText('n.created_at')} AS created_at, u.id AS author_id, u.name AS author_name, u.email AS author_email`);

function noteJson(row: NoteRow): NoteJson {
  return {
    id: row.id,
    content: row.content,
    note_type: row.note_type,
    sensitivity: row.sensitivity,
    created_at: row.created_at,
    author:
      row.author_id === null ? null : { id: row.author_id, name: row.author_name!, email: row.author_email! },
  };
}

async function noteRows(db: Tx, eventId: number, registrationId: number, where = sql``): Promise<NoteRow[]> {
  const res = await db.execute<NoteRow>(
    sql`SELECT ${NOTE_COLUMNS} FROM notes n LEFT JOIN users u ON u.id = n.author_user_id
         WHERE n.event_id = ${eventId} AND n.registration_id = ${registrationId}${where}
         ORDER BY n.created_at DESC, n.id DESC`,
  );
  return res.rows;
}

/** GET …/participants/{pe}/notes → `{notes}`, newest first; restricted ones only for sensitive readers. */
export async function listNotes(ctx: UserEventCtx, rawId: string): Promise<{ notes: NoteJson[] }> {
  const event = ctx.access.event;
  const registrationId = await registrationInEvent(ctx, rawId);
  const filter = ctx.access.visibility.sensitive ? sql`` : sql` AND n.sensitivity <> 'restricted'`;
  const rows = await noteRows(ctx.db, event.id, registrationId, filter);
  return { notes: rows.map(noteJson) };
}

/**
 * POST …/participants/{pe}/notes → `{note}` (201). `content` is trimmed: blank → 422
 * `Note content cannot be blank`, longer than 10,000 characters → 422. The author always gets the
 * note back, also a restricted one they could not list afterwards.
 */
export async function createNote(
  ctx: UserEventCtx,
  rawId: string,
  input: CreateNoteInput,
): Promise<{ note: NoteJson }> {
  const event = ctx.access.event;
  const authorId = ctx.access.principal.user.id;
  const registrationId = await registrationInEvent(ctx, rawId);
  const content = input.content.trim();
  if (content === '') throw unprocessable(BLANK_CONTENT);
  if (content.length > MAX_NOTE_LENGTH)
    throw unprocessable(`Note content must be at most ${MAX_NOTE_LENGTH} characters`);
  const noteType = input.note_type ?? 'ops';
  const sensitivity = input.sensitivity ?? 'normal';
  return ctx.db.transaction(async (tx) => {
    const inserted = await tx.execute<{ id: number }>(
      sql`INSERT INTO notes (event_id, registration_id, author_user_id, content, note_type, sensitivity)
          VALUES (${event.id}, ${registrationId}, ${authorId}, ${content}, ${noteType}, ${sensitivity})
          RETURNING id::int AS id`,
    );
    const id = one(inserted.rows).id;
    // Notes are part of the registration's record (docs/decisions.md "Notes"): clients re-sync it.
    await touchRegistration(tx, registrationId);
    await recordAudit(tx, {
      action: 'notes.create',
      principal: ctx.access.principal,
      eventId: event.id,
      seriesId: event.seriesId,
      targetType: 'registration',
      targetId: registrationId,
      metadata: { note_id: id, note_type: noteType, sensitivity },
    });
    const [row] = await noteRows(tx, event.id, registrationId, sql` AND n.id = ${id}`);
    return { note: noteJson(row!) };
  });
}
