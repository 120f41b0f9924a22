/**
 * "New event" pages (organiser-fluency issue, item 2): creating an event of a series from the UI,
 * blank or as a copy of an earlier one. Who, from the issue: series owners, organisers and global
 * admins (the people who may create events of the series; the API's `POST /series/{s}/events` is
 * for series keys). Event roles, even event_admin, are refused. Forms are listed with a payload
 * (refused without the CSRF token); their signed-in rows are in test/web/new-event.test.ts.
 */
import type { StaffPage } from './types.js';

const se = (path: string) => (t: { series: string }) => `/staff/series/${t.series}${path}`;

export const pages: StaffPage[] = [
  {
    route: 'GET /staff/series/:series_id/events/new',
    action: 'series_events.create',
    who: 'series_member',
    target: 'series',
    url: se('/events/new'),
  },
  {
    route: 'POST /staff/series/:series_id/events/new',
    action: 'series_events.create',
    who: 'series_member',
    target: 'series',
    url: se('/events/new'),
    payload: 'name=Rows+Event&support_email=rows%40muster.example',
  },
  {
    route: 'POST /staff/series/:series_id/events/copy',
    action: 'series_events.create',
    who: 'series_member',
    target: 'series',
    url: se('/events/copy'),
    payload: 'name=Rows+Copy&starts_on=2027-07-10',
  },
];
