/**
 * IANA time zones and wall-clock times (docs/decisions.md "Series, events and bans": an event's `timezone` must be an IANA name and
 * zone-less date-times are read in the event's zone). Uses Intl only: no time-zone database of our own.
 */

const ZONE_NAME = /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/;
/** `YYYY-MM-DD`, optionally `THH:MM[:SS[.fraction]]`, optionally `Z` or `±HH:MM`. */
const LOCAL =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const DAY = 86_400_000;
/** 0001-01-01T00:00Z .. 9999-12-31T23:59:59.999Z: what PostgreSQL and ISO 8601 (4-digit years) take. */
const MIN_INSTANT = -62_135_596_800_000;
const MAX_INSTANT = 253_402_300_799_999;
let knownZones: Map<string, string> | undefined;

/**
 * The IANA name of `zone` as it should be stored, or null when Intl does not know it. Only names are
 * accepted (`Europe/London`, `UTC`), never offsets (`+01:00`). The caller's spelling is kept (ICU
 * would rename `Asia/Kolkata` to `Asia/Calcutta`); only its letter case is corrected when ICU lists
 * the zone under another case (`europe/london` → `Europe/London`).
 */
export function canonicalTimeZone(zone: string): string | null {
  if (zone.length > 64 || !ZONE_NAME.test(zone)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (resolved.toLowerCase() === zone.toLowerCase()) return resolved;
  knownZones ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  return knownZones.get(zone.toLowerCase()) ?? zone;
}

/** Milliseconds to add to UTC to get the wall-clock time of `zone` at `instant`. */
export function zoneOffsetMs(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = utcMs(n('year'), n('month'), n('day'), n('hour'), n('minute'), n('second'), 0);
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * Reads an ISO 8601 date-time; a value without `Z`/offset (or a bare date, = midnight) is wall-clock
 * time in `zone`. Returns the instant as ISO 8601 UTC, or null when the value is not a real
 * date-time (2026-02-30, hour 24, offset beyond ±14:00). A wall-clock time skipped by a DST change
 * moves forward by the gap (02:30 on a spring-forward night → 03:30); a repeated one takes the
 * earlier instant.
 */
export function zonedToInstant(value: string, zone: string): string | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const ms = Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  const wall = utcMs(y!, mo!, d!, h!, mi!, s!, ms);
  const check = new Date(wall);
  if (
    y! < 1 ||
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo! - 1 ||
    check.getUTCDate() !== d ||
    check.getUTCHours() !== h ||
    check.getUTCMinutes() !== mi ||
    check.getUTCSeconds() !== s
  )
    return null;
  const offset = m[8];
  if (offset === 'Z') return iso(wall);
  if (offset) {
    const o = /([+-])(\d{2}):?(\d{2})/.exec(offset)!;
    const minutes = Number(o[2]) * 60 + Number(o[3]);
    if (Number(o[3]) >= 60 || minutes > 14 * 60) return null;
    return iso(wall - (o[1] === '-' ? -1 : 1) * minutes * 60_000);
  }
  // The zone's offsets a day either side bracket at most one transition: each gives a candidate;
  // keep those that really show `wall` there (both: a repeated hour → the earlier instant; none: a
  // skipped hour → the instant read with the earlier offset, which lies after the gap).
  const before = wall - zoneOffsetMs(wall - DAY, zone);
  const after = wall - zoneOffsetMs(wall + DAY, zone);
  const valid = [before, after].filter((t) => t + zoneOffsetMs(t, zone) === wall);
  const instant = valid.length > 0 ? Math.min(...valid) : before;
  return iso(instant);
}

/** Date.UTC without its 0..99 → 1900s year mapping (`month` 1-based). */
function utcMs(y: number, month: number, d: number, h: number, mi: number, s: number, ms: number): number {
  const at = new Date(0);
  at.setUTCFullYear(y, month - 1, d);
  at.setUTCHours(h, mi, s, ms);
  return at.getTime();
}

function iso(instant: number): string | null {
  return instant < MIN_INSTANT || instant > MAX_INSTANT ? null : new Date(instant).toISOString();
}
