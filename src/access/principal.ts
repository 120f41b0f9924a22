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
  | ({ kind: 'event_key'; eventId: number; ownerUserId: number | null; legacy: boolean } & CredentialInfo)
  /** The guardian portal's emailed link (credential source `guardian_link`; access/guardian-link.ts). */
  | ({ kind: 'guardian_link'; guardianId: number; registrationId: number; eventId: number } & CredentialInfo);

export type UserPrincipal = Extract<Principal, { user: PrincipalUser }>;
export type MobilePrincipal = Extract<Principal, { kind: 'mobile' }>;
export type KeyPrincipal = Extract<Principal, { kind: 'series_key' | 'event_key' }>;
export type GuardianLinkPrincipal = Extract<Principal, { kind: 'guardian_link' }>;

/** The user a request acts for in the audit trail: the user, a key's owner, or nobody (a guardian link). */
export function actorUserIdOf(p: Principal): number | null {
  if ('user' in p) return p.user.id;
  return 'ownerUserId' in p ? p.ownerUserId : null;
}

export function isUserPrincipal(p: Principal): p is UserPrincipal {
  return p.kind === 'mobile' || p.kind === 'global';
}
