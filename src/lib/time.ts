/**
 * Timestamps on the wire (docs/decisions.md "Timestamps and nulls"): ISO 8601 UTC with microseconds, e.g.
 * `2026-11-22T04:13:41.908781Z`. PostgreSQL text (`2026-11-22 04:13:41.9+00`, sessions run in UTC)
 * is converted here; SQL-built JSON uses `isoSql()` which yields the identical format.
 */
import { type SQL, sql } from 'drizzle-orm';

const PG_TS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(?:\+00(?::?00)?|Z)$/;

/** PostgreSQL timestamptz text (UTC session) → ISO 8601 with 6 fractional digits; null stays null. */
export function isoTimestamp(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const m = PG_TS.exec(value);
  if (!m) throw new Error(`Unexpected timestamp format from the database: ${value}`);
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(6, '0')}Z`;
}

/** The to_char() pattern of the wire format (UTC, microseconds, `Z`): the one definition of it in SQL. */
const ISO_SQL_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** SQL text formatting a timestamptz expression exactly like isoTimestamp() (NULL stays NULL). */
export function isoSqlText(expression: string): string {
  return `to_char((${expression}) AT TIME ZONE 'UTC', ${ISO_SQL_FORMAT})`;
}

/** isoSqlText() for a Drizzle SQL value. */
export function isoSql(column: SQL | SQL.Aliased | string): SQL {
  const col = typeof column === 'string' ? sql.raw(column) : column;
  return sql`to_char((${col}) AT TIME ZONE 'UTC', ${sql.raw(ISO_SQL_FORMAT)})`;
}

/**
 * Strict ISO 8601 date-time with a zone (Z or ±hh:mm); fractional seconds up to 6 digits.
 * Used for query cursors (`updated_since`, `since`) and `expires_at`; anything else is a 422.
 */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * True for a real instant in strict ISO 8601 with a zone: the calendar fields must exist
 * (no 2026-02-30, no hour 24) and the offset must be within ±14:00, so PostgreSQL accepts
 * every value this accepts (a value it refused would otherwise surface as a 500).
 */
export function isIsoDateTime(value: string): boolean {
  if (!ISO_DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value)!;
  const field = (i: number) => Number(m[i] ?? 0);
  const [y, mo, d, h, mi, sec] = [field(1), field(2), field(3), field(4), field(5), field(6)];
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  at.setUTCHours(h, mi, sec, 0);
  const fieldsExist =
    at.getUTCFullYear() === y &&
    at.getUTCMonth() === mo - 1 &&
    at.getUTCDate() === d &&
    at.getUTCHours() === h &&
    at.getUTCMinutes() === mi &&
    at.getUTCSeconds() === sec;
  const zone = /([+-])(\d{2}):?(\d{2})$/.exec(value);
  const zoneOk = !zone || (Number(zone[2]) * 60 + Number(zone[3]) <= 14 * 60 && Number(zone[3]) < 60);
  return fieldsExist && zoneOk;
}
