/**
 * The two scopes behind the webhooks pages (docs/staff-dashboard.md "Webhooks"): an event's
 * endpoints (`webhooks.manage`: event admins, series owners/organizers, global admins) and a
 * series' (`series_webhooks.manage`: series owners, global admins). A scope carries the service
 * context, whose endpoints (`Owner`), the pages' base path and what frames the page.
 */

import type { UserEventCtx, UserSeriesCtx } from '../../deps.js';
import { staffText } from '../../lib/i18n/staff.js';
import { EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../outbound-webhooks/event-types.js';
import type { Owner } from '../outbound-webhooks/owner.js';
import type { WebhookCtx } from '../outbound-webhooks/webhooks.service.js';
import { eventNav, may } from './nav.js';
import { titleOf } from './org-pages.js';

export interface HookScope {
  ctx: WebhookCtx;
  owner: Owner;
  /** `/staff/events/{id}/webhooks` or `/staff/series/{slug}/webhooks`. */
  base: string;
  frame: Record<string, unknown>;
}

/** The types a page offers (every type but `ping`, which is sent only on request), with their summaries. */
export const OFFERED_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'ping').map((t) => ({
  value: t,
  summary: EVENT_TYPES[t].summary,
}));

export function eventHookScope(ctx: UserEventCtx): HookScope {
  const { event } = ctx.access;
  return {
    ctx,
    owner: { kind: 'event', eventId: event.id, seriesId: event.seriesId },
    base: `/staff/events/${event.id}/webhooks`,
    frame: {
      title: titleOf(staffText('nav.webhooks'), event.name),
      heading: staffText('webhooks_scope.webhooks'),
      event,
      nav: eventNav(ctx.access, event.id, '/webhooks'),
      links: may(ctx.access, 'series_webhooks.manage')
        ? [
            {
              href: `/staff/series/${event.seriesId}/webhooks`,
              text: staffText('webhooks_scope.series_webhooks'),
            },
          ]
        : [],
      ownerText: staffText('webhooks_scope.this_event'),
    },
  };
}

export function seriesHookScope(ctx: UserSeriesCtx): HookScope {
  const { series } = ctx.access;
  return {
    ctx,
    owner: { kind: 'series', seriesId: series.id },
    base: `/staff/series/${series.slug}/webhooks`,
    frame: {
      title: titleOf(staffText('nav.webhooks'), series.name),
      heading: staffText('webhooks_scope.series_heading', { name: series.name }),
      links: [
        { href: `/staff/series/${series.slug}/team`, text: staffText('webhooks_scope.series_team') },
        { href: `/staff/series/${series.slug}/api-keys`, text: staffText('webhooks_scope.api_keys') },
      ],
      ownerText: staffText('webhooks_scope.every_event_of_this_series'),
    },
  };
}

/** The one-time secret cookie of an endpoint's page (secret-once.ts). */
export const onceOf = (scope: HookScope, id: number) => ({
  name: 'muster_new_whsec',
  path: `${scope.base}/${id}`,
  scope: `${scope.owner.kind}:${scope.owner.seriesId}:${id}`,
});
