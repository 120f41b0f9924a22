/**
 * Room door lists (docs/rooming.md "Door lists"): a PDF with one A4 page per room
 * of the event's inventory, in the inventory's order (venue, floor, name), showing the room's name
 * and its occupants' display names, nothing else (a door list hangs where anyone passing reads it).
 * Built with the printouts' pdfkit plumbing (src/modules/exports/printouts/pdf.ts: the same
 * document settings, text cleaned for the standard fonts). Readable by `rooms.read`; audited
 * `rooms.door_lists` (room and name counts, never names) once the file is built.
 *
 * Returns the file as a Buffer (an event has at most a few thousand rooms: a page each is small).
 */

import type { UserEventCtx } from '../../deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { BOLD, clean, type Doc, FONT, mm, pdfOut } from '../exports/printouts/pdf.js';
import { loadRooms } from './rooms.repo.js';
import type { RoomJson } from './rooms.schemas.js';

const MARGIN = mm(20);
const NAME_SIZE = 16;

function roomPage(doc: Doc, room: RoomJson): void {
  doc.addPage();
  const width = doc.page.width - 2 * MARGIN;
  doc.font(BOLD).fontSize(40).fillColor('black').text(clean(room.name), MARGIN, MARGIN, { width });
  doc.moveDown(0.6);
  doc.font(FONT).fontSize(NAME_SIZE);
  const bottom = doc.page.height - MARGIN;
  const names = room.occupants.map((o) => clean(o.display_name));
  // Many people (a large dorm): the size shrinks so every name stays on the room's one page.
  const lineHeight = doc.currentLineHeight(true);
  const space = bottom - doc.y;
  if (names.length * lineHeight > space)
    doc.fontSize(Math.max(6, (NAME_SIZE * space) / (names.length * lineHeight)));
  for (const name of names) doc.text(name, MARGIN, doc.y, { width, lineBreak: false, ellipsis: true });
}

/** The event's door lists as one PDF (a page per room) and its file name (`<event slug>-room-door-lists.pdf`). */
export async function doorListsPdf(ctx: UserEventCtx): Promise<{ pdf: Buffer; filename: string }> {
  const event = ctx.access.event;
  const rooms = await loadRooms(ctx.db, event.id);
  const out = pdfOut(`Room door lists: ${event.name}`, 'A4');
  const chunks: Buffer[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    out.out.on('data', (c: Buffer) => chunks.push(c));
    out.out.once('end', resolve);
    out.out.once('error', reject);
  });
  if (rooms.length === 0) {
    out.doc.addPage();
    out.doc.font(FONT).fontSize(14).text('This event has no rooms yet.', MARGIN, MARGIN);
  }
  for (const room of rooms) roomPage(out.doc, room);
  await out.finish();
  await ended;
  await recordAudit(ctx.db, {
    action: 'rooms.door_lists',
    principal: ctx.access.principal,
    eventId: event.id,
    targetType: 'event',
    targetId: event.id,
    metadata: { rooms: rooms.length, names: rooms.reduce((n, r) => n + r.occupants.length, 0) },
  });
  return { pdf: Buffer.concat(chunks), filename: `${event.slug}-room-door-lists.pdf` };
}
