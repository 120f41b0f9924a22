/**
 * The rooming board's words (docs/rooming.md "Pages"): a room column's heading details, a flag's
 * icon (always beside its text, never instead of it), and a plan (dry run) as names and reasons.
 */

import { staffText } from '../../../lib/i18n/staff.js';
import type { BoardRoom, Card } from '../../rooming/board.service.js';
import type { PlanJson } from '../../rooming/plan.service.js';
import { plainMessage } from '../field-labels.js';
import { agesOf, DESIGNATION_WORDS, TYPE_WORDS } from './room-form.js';

const ICONS: Record<Card['flags'][number]['kind'], string> = {
  minor: '☆',
  adult: '★',
  no_dob: '?',
  quiet: '☾',
  accessible: '♿',
  exempt: '⊘',
  outside: '⚠',
};

/** A column's heading details: "2 of 4 beds", designation, type, ages, accessible/quiet. */
export function roomWords(r: BoardRoom) {
  const details = [TYPE_WORDS[r.type], agesOf(r)];
  if (r.accessible) details.push(staffText('rooming_board_view.accessible'));
  if (r.quiet) details.push(staffText('rooming_board_view.quiet'));
  return {
    id: r.id,
    name: r.name,
    where: [r.venue, r.floor && staffText('rooming_board_view.floor', { floor: r.floor })]
      .filter(Boolean)
      .join(', '),
    beds: staffText('rooming_board_view.beds', { used: String(r.used), capacity: String(r.capacity) }),
    full: r.used >= r.capacity,
    designation: DESIGNATION_WORDS[r.gender_designation],
    details: details.join(' · '),
  };
}

/** A card with its flags' icons. */
export function cardWords(c: Card) {
  return { ...c, flags: c.flags.map((f) => ({ ...f, icon: ICONS[f.kind] })) };
}

/** A plan in names: who goes where by room, who is left out and why, unmet requests and why. */
export function planWords(plan: PlanJson, names: Map<number, string>, rooms: Map<number, string>) {
  const name = (id: number) =>
    names.get(id) ?? staffText('rooming_board_view.registration', { id: String(id) });
  const byRoom = new Map<number, string[]>();
  for (const a of plan.assignments)
    byRoom.set(a.room_id, [...(byRoom.get(a.room_id) ?? []), name(a.participant_event_id)]);
  return {
    placed: plan.assignments.length,
    rooms: [...byRoom].map(([id, people]) => ({
      room: rooms.get(id) ?? staffText('rooming_board_view.room', { id: String(id) }),
      people: people.join(', '),
    })),
    unassigned: plan.unassigned.map((u) => ({
      name: name(u.participant_event_id),
      reason: plainMessage(u.reason),
    })),
    unmet: plan.requests.unmet.map((u) => ({
      name: name(u.participant_event_id),
      other: u.roommate_participant_event_id === null ? null : name(u.roommate_participant_event_id),
      mutual: u.mutual,
      reason: plainMessage(u.reason),
    })),
    met: plan.requests.met,
    total: plan.requests.total,
    /** The assignments as the apply form carries them: `id:room,id:room`. */
    encoded: plan.assignments.map((a) => `${a.participant_event_id}:${a.room_id}`).join(','),
  };
}

/** The apply form's `plan` field back into assignments; null when it is not such a list. */
export function decodePlan(text: string): { participant_event_id: number; room_id: number }[] | null {
  if (!text.trim()) return [];
  const out: { participant_event_id: number; room_id: number }[] = [];
  for (const part of text.split(',')) {
    const m = /^([0-9]{1,9}):([0-9]{1,9})$/.exec(part.trim());
    if (!m) return null;
    out.push({ participant_event_id: Number(m[1]), room_id: Number(m[2]) });
  }
  return out;
}
