/**
 * Inviting a pasted list (staff dashboard, invitations page): one invitation per line, each in its
 * own transaction through `inviteParticipant` (the same checks, emails and audit as
 * `POST /events/{e}/participants`), so one bad line never blocks the others.
 *
 * A line is `email`, optionally followed by a first and a last name, separated by commas, tabs or
 * semicolons (a column pasted from a spreadsheet works): `ada@example.com, Ada, Lovelace`. Blank
 * lines are skipped. At most `MAX_LINES` lines (more → 422 before anything is sent).
 */
import type { EventCtx } from '../../../deps.js';
import { ApiError, unprocessable } from '../../../lib/errors.js';
import { inviteParticipant } from './invitations.service.js';

export const MAX_LINES = 200;

export interface LineOutcome {
  /** 1-based line number in the pasted text. */
  line: number;
  /** The email as typed (trimmed), or the whole line when it has no separator. */
  email: string;
  /** null: invited; else the refusal (`Invalid email format`, `An invitation has already been sent…`). */
  error: string | null;
}

interface ParsedLine {
  line: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** Splits pasted text into invitation lines (blank lines skipped). 422 past MAX_LINES. */
export function parseInviteList(text: string): ParsedLine[] {
  const out: ParsedLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const cells = raw.split(/[,;\t]/).map((c) => c.trim());
    if (cells.every((c) => c === '')) return;
    out.push({
      line: i + 1,
      email: cells[0] ?? '',
      first_name: cells[1] || null,
      last_name: cells[2] || null,
    });
  });
  if (out.length > MAX_LINES) throw unprocessable(`Paste at most ${MAX_LINES} addresses at a time`);
  return out;
}

/** Invites every line of `text`; returns one outcome per non-blank line, in order. */
export async function inviteList(ctx: EventCtx, text: string): Promise<LineOutcome[]> {
  const outcomes: LineOutcome[] = [];
  for (const l of parseInviteList(text)) {
    try {
      await inviteParticipant(ctx, { email: l.email, first_name: l.first_name, last_name: l.last_name });
      outcomes.push({ line: l.line, email: l.email, error: null });
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
      outcomes.push({ line: l.line, email: l.email, error: error.message });
    }
  }
  return outcomes;
}
