// Offline search over the cached participant list, with the API search's rules
// (GET /api/v1/events/{e}/participants/search): the term is trimmed, a blank term finds nobody;
// case-insensitive substring of a name (full, display/preferred) or the email; an all-digit term
// also matches participant_event_id or participant_id exactly. Best first: id matches, then exact
// email or name, then a name or email starting with the term, then the rest; ties by full name,
// then id. At most 20. (Legal first and last names are the words of full_name here.)

const LIMIT = 20;

function rank(p, needle, id) {
  if (id !== null && (p.participant_event_id === id || p.participant_id === id)) return 0;
  const full = p.full_name.toLowerCase();
  const display = p.display_name.toLowerCase();
  const email = p.email.toLowerCase();
  if (email === needle || full === needle || display === needle) return 1;
  const words = [...full.split(' '), display, email];
  if (words.some((w) => w.startsWith(needle))) return 2;
  if (full.includes(needle) || display.includes(needle) || email.includes(needle)) return 3;
  return -1;
}

/** Up to 20 participants of `list` matching `term`, best first. */
export function searchRoster(list, term) {
  const q = term.trim();
  if (q === '') return [];
  const needle = q.toLowerCase();
  const id = /^[0-9]{1,9}$/.test(q) ? Number(q) : null;
  return list
    .map((p) => ({ p, r: rank(p, needle, id) }))
    .filter((x) => x.r >= 0)
    .sort(
      (a, b) =>
        a.r - b.r ||
        a.p.full_name.toLowerCase().localeCompare(b.p.full_name.toLowerCase()) ||
        a.p.participant_event_id - b.p.participant_event_id,
    )
    .slice(0, LIMIT)
    .map((x) => x.p);
}
