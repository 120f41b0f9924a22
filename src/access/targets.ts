/**
 * The resolved pieces of an authorised request that services need, with a clear failure when a
 * route is wired to an action whose target does not provide them (a programming error, 500).
 */
import type { AccessContext } from './authorize.js';
import type { PrincipalUser } from './principal.js';
import type { EventRow, SeriesRow } from './resolve.js';

export function eventOf(access: AccessContext): EventRow {
  if (!access.event) throw new Error(`${access.action}: no event resolved for this action`);
  return access.event;
}

export function seriesOf(access: AccessContext): SeriesRow {
  if (!access.series) throw new Error(`${access.action}: no series resolved for this action`);
  return access.series;
}

/** The acting user (every organiser action is users-only: keys are refused by the gate). */
export function userOf(access: AccessContext): PrincipalUser {
  const p = access.principal;
  if (!('user' in p)) throw new Error(`${access.action}: reached by a credential without a user`);
  return p.user;
}
