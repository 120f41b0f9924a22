/**
 * The services' refusals a participant or guardian can meet on a page, in the reader's language
 * (docs/languages.md "Error messages"). The services speak English to the API; a page looks their
 * message up here and shows the catalog's `errors.*` sentence instead. A message not listed stays as
 * the service wrote it.
 */
import { LINK_EXPIRED, LINK_NOT_FOUND } from '../../access/guardian-link.js';
import { CONSENT_NOT_FOUND, NOT_YOUR_REGISTRATION, REGISTRATION_NOT_FOUND } from '../../access/own.js';
import { BASE_LANGUAGE, translator } from '../../lib/i18n/index.js';
import { EMAIL_BANNED } from '../registration/invitations/invitations.service.js';

const EXACT: Record<string, string> = {
  [LINK_NOT_FOUND]: 'errors.guardian_link_not_found',
  [LINK_EXPIRED]: 'errors.guardian_link_expired',
  [CONSENT_NOT_FOUND]: 'errors.consent_not_found',
  [REGISTRATION_NOT_FOUND]: 'errors.registration_not_found',
  [NOT_YOUR_REGISTRATION]: 'errors.not_your_registration',
  [EMAIL_BANNED]: 'errors.banned',
  'There is no such part of the registration form': 'errors.no_such_section',
  'Consent not found, or already signed': 'errors.consent_not_pending',
  'This consent is already signed': 'errors.consent_already_signed',
  'This consent must be signed by a parent or guardian': 'errors.consent_for_guardian',
  'This consent must be signed by the participant': 'errors.consent_for_participant',
  'Registration for this event is not open': 'errors.registration_not_open',
  'This invitation was sent to a different email address': 'errors.invitation_other_address',
  'This invitation has expired': 'errors.invitation_expired',
  'This invitation has been revoked': 'errors.invitation_revoked',
  'This invitation has already been used': 'errors.invitation_used',
  'Invalid or expired invitation token': 'errors.invitation_unusable',
  'This email is already registered for this event': 'errors.already_registered',
};

const PATTERNS: [RegExp, string][] = [
  [/^This registration is \w+ and can no longer be edited$/, 'errors.not_editable'],
  [/^This registration is \w+$/, 'errors.not_editable'],
  [/^Only a registration in progress can be submitted/, 'errors.not_submittable'],
];

/**
 * `message` in `lang` when it is a known refusal, else unchanged (English readers get the
 * service's own sentence, which can name more detail than the catalog's).
 */
export function knownError(lang: string, message: string): string {
  if (lang === BASE_LANGUAGE) return message;
  const key = EXACT[message] ?? PATTERNS.find(([re]) => re.test(message))?.[1];
  return key ? translator(lang)(key) : message;
}
