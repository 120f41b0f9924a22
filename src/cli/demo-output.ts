/** How the CLI shows demo data: credentials (printed on stdout, never logged) and curl examples. */
import type { DemoResult } from '../demo/seed.js';

/** The demo result with snake_case keys, as `--json` prints it. */
export function demoJson(demo: DemoResult): Record<string, unknown> {
  return {
    series_id: demo.seriesId,
    event_id: demo.eventId,
    event_uuid: demo.eventUuid,
    event_slug: demo.eventSlug,
    sibling_event_id: demo.siblingEventId,
    sibling_event_slug: demo.siblingEventSlug,
    participant_count: demo.participantCount,
    users: demo.users,
    credentials: demo.credentials,
  };
}

/** Human-readable demo summary; `apiUrl` is the API base (ending in /api/v1). */
export function demoText(demo: DemoResult, apiUrl: string): string[] {
  const c = demo.credentials;
  const width = Math.max(...demo.users.map((u) => u.email.length));
  return [
    `Demo data: series "demo-series", event "${demo.eventSlug}" (${demo.participantCount} participants) and "${demo.siblingEventSlug}".`,
    '',
    'Staff users (sign in by email code):',
    ...demo.users.map((u) => `  ${u.email.padEnd(width)}  ${u.role}`),
    '',
    'Credentials (shown only this once):',
    `  admin mobile token         ${c.admin_mobile_token}`,
    `  ops mobile token           ${c.ops_mobile_token}`,
    `  safeguarding mobile token  ${c.safeguarding_mobile_token}`,
    `  limited mobile token       ${c.limited_mobile_token}`,
    `  series API key             ${c.series_key}`,
    `  event API key              ${c.event_key}`,
    '',
    'Try:',
    `  curl -H "Authorization: Bearer ${c.admin_mobile_token}" ${apiUrl}/events`,
    `  curl -H "Authorization: Bearer ${c.admin_mobile_token}" ${apiUrl}/events/${demo.eventSlug}/participants`,
    `  curl -H "Authorization: Bearer ${c.series_key}" ${apiUrl}/series/current/events`,
  ];
}

/** `http://host:port` or `http://host:port/api/v1` → the API base ending in /api/v1. */
export function apiBase(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/api/v1') ? trimmed : `${trimmed}/api/v1`;
}
