/**
 * Webhooks pages (issue 29 item 1: "on a dashboard page, by event admins (event) and series owners
 * (series)"; docs/webhooks.md "Outbound", "Who": an event's webhooks also by the series' owners and
 * organizers and global admins, like other event management; a series' by its owners and global
 * admins). Forms are listed with a payload (refused without the CSRF token); the signed-in rows are
 * in test/web/staff-webhooks.test.ts.
 */
import type { StaffPage } from './types.js';

const ev = (path: string) => (t: { event: number }) => `/staff/events/${t.event}/webhooks${path}`;
const se = (path: string) => (t: { series: string }) => `/staff/series/${t.series}/webhooks${path}`;

const SCOPES = [
  {
    prefix: '/staff/events/:event_id',
    action: 'webhooks.manage',
    who: 'event_manage',
    target: 'event',
    url: ev,
  },
  {
    prefix: '/staff/series/:series_id',
    action: 'series_webhooks.manage',
    who: 'series_owner',
    target: 'series',
    url: se,
  },
] as const;

export const pages: StaffPage[] = SCOPES.flatMap((s): StaffPage[] => {
  const row = (method: string, path: string, url: string, payload?: string, allowed?: 404): StaffPage => ({
    route: `${method} ${s.prefix}/webhooks${path}`,
    action: s.action,
    who: s.who,
    target: s.target,
    url: s.url(url),
    ...(payload === undefined ? {} : { payload }),
    ...(allowed ? { allowed } : {}),
  });
  return [
    row('GET', '', ''),
    row('POST', '', '', 'url=https%3A%2F%2F93.184.216.34%2Fhook&event_types=scan.created'),
    row('GET', '/:id', '/1', undefined, 404), // the world has no webhook: allowed callers reach the 404
    row('POST', '/:id/enabled', '/1/enabled', 'enabled=false'),
    row('POST', '/:id/rotate', '/1/rotate', ''),
    row('POST', '/:id/ping', '/1/ping', ''),
    row('POST', '/:id/delete', '/1/delete', ''),
    row('POST', '/:id/deliveries/:delivery_id/redeliver', '/1/deliveries/1/redeliver', ''),
  ];
});
