/**
 * Flight-data provider configuration (MUSTER_FLIGHTS_*; docs/travel.md "Configuration"), parsed by
 * config.ts. Which provider answers flight checks and live tracking:
 * - `aerodatabox`: the AeroDataBox API (needs MUSTER_FLIGHTS_API_KEY; URL defaults to RapidAPI's host),
 * - `demo`: a deterministic local timetable (no network; the demo event's flights move),
 * - `none`: no provider; flight checks are `format_only` and nothing is tracked.
 * Unset: `aerodatabox` when an API key is set, else `demo` on the embedded database, else `none`.
 */
export type FlightProviderName = 'none' | 'demo' | 'aerodatabox';

export interface FlightsConfig {
  readonly provider: FlightProviderName;
  /** Base URL of the provider's HTTP API (no trailing slash). */
  readonly url: string;
  /** API key (secret: never logged, never stored). */
  readonly apiKey: string | undefined;
  /** Provider calls the tracking job may make per clock hour and per UTC day. */
  readonly budgetPerHour: number;
  readonly budgetPerDay: number;
  /** Minutes between tracking runs (a cron step, 1–60). */
  readonly pollMinutes: number;
  /** Time limit of one provider request (ms). */
  readonly timeoutMs: number;
}

export const AERODATABOX_DEFAULT_URL = 'https://aerodatabox.p.rapidapi.com';

export interface FlightsEnv {
  MUSTER_FLIGHTS_PROVIDER?: FlightProviderName | undefined;
  MUSTER_FLIGHTS_URL?: string | undefined;
  MUSTER_FLIGHTS_API_KEY?: string | undefined;
  MUSTER_FLIGHTS_BUDGET_PER_HOUR: number;
  MUSTER_FLIGHTS_BUDGET_PER_DAY: number;
  MUSTER_FLIGHTS_POLL_MINUTES: number;
  MUSTER_FLIGHTS_TIMEOUT_MS: number;
}

/** Returns the config, or the message of the first inconsistency (config.ts throws it). */
export function parseFlights(e: FlightsEnv, embedded: boolean): FlightsConfig | string {
  const provider: FlightProviderName =
    e.MUSTER_FLIGHTS_PROVIDER ?? (e.MUSTER_FLIGHTS_API_KEY ? 'aerodatabox' : embedded ? 'demo' : 'none');
  if (provider === 'aerodatabox' && !e.MUSTER_FLIGHTS_API_KEY)
    return 'MUSTER_FLIGHTS_API_KEY is required with MUSTER_FLIGHTS_PROVIDER=aerodatabox';
  const url = (e.MUSTER_FLIGHTS_URL ?? AERODATABOX_DEFAULT_URL).replace(/\/+$/, '');
  const parsed = URL.parse(url);
  if (!parsed) return 'MUSTER_FLIGHTS_URL is not a URL';
  if (parsed.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname))
    return 'MUSTER_FLIGHTS_URL must use https (http only for localhost)';
  return Object.freeze({
    provider,
    url,
    apiKey: e.MUSTER_FLIGHTS_API_KEY,
    budgetPerHour: e.MUSTER_FLIGHTS_BUDGET_PER_HOUR,
    budgetPerDay: e.MUSTER_FLIGHTS_BUDGET_PER_DAY,
    pollMinutes: e.MUSTER_FLIGHTS_POLL_MINUTES,
    timeoutMs: e.MUSTER_FLIGHTS_TIMEOUT_MS,
  });
}
