/** Who is calling (spec "Authentication"): the four credential kinds, resolved by access/authenticate.ts. */

export interface PrincipalUser {
  id: number;
  uuid: string;
  email: string;
  name: string;
  globalAdmin: boolean;
}

interface CredentialInfo {
  /** Credential record id (a string for the legacy key: the event id it belongs to). */
  credentialId: string;
  credentialName: string | null;
}

export type Principal =
  | ({ kind: 'mobile'; user: PrincipalUser; expiresAt: Date } & CredentialInfo)
  | ({ kind: 'global'; user: PrincipalUser; scopes: string[] } & CredentialInfo)
  | ({ kind: 'series_key'; seriesId: string; ownerUserId: number | null } & CredentialInfo)
  | ({ kind: 'event_key'; eventId: number; ownerUserId: number | null; legacy: boolean } & CredentialInfo);

export type UserPrincipal = Extract<Principal, { user: PrincipalUser }>;

export function isUserPrincipal(p: Principal): p is UserPrincipal {
  return p.kind === 'mobile' || p.kind === 'global';
}
