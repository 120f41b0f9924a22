/**
 * Wire shapes of the guardian portal (docs/decisions.md "Guardian portal").
 * The portal shows the guardian their own guardian record (the spec's `guardians[]` item), a
 * summary of the child's registration (no medical or safeguarding detail), the permissions to grant
 * and the consents waiting on a guardian's signature.
 */
import { Type } from 'typebox';
import { DateOnly, DateTime, Nullable, NullableDateTime } from '../../../http/schema-helpers.js';

const NStr = Nullable(Type.String());

/** Permission fields a guardian answers, and the answers allowed. */
export const PERMISSION_KEYS = [
  'media_permission',
  'photo_permission',
  'travel_permission',
  'emergency_medical_consent',
  'otc_medication_consent',
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];
/** Answered before `complete` (the over-the-counter medication consent is optional). */
export const REQUIRED_PERMISSIONS: readonly PermissionKey[] = [
  'media_permission',
  'photo_permission',
  'travel_permission',
  'emergency_medical_consent',
];
export const PERMISSION_VALUES = ['granted', 'denied'] as const;
export const PERMISSION_LABELS: Record<PermissionKey, string> = {
  media_permission: 'Photos and video of your child may be used in event media',
  photo_permission: 'Your child may be photographed during the event',
  travel_permission: 'Your child may travel with event staff (transfers and outings)',
  emergency_medical_consent: 'Staff may consent to emergency medical treatment if you cannot be reached',
  otc_medication_consent: 'Staff may give over-the-counter medication (optional)',
};

export const GuardianContact = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  phone: Type.String(),
  email: NStr,
  relationship: Type.String(),
  priority: Type.Integer(),
});

export const PortalGuardian = Type.Object({
  id: Type.Integer(),
  name: NStr,
  email: NStr,
  phone: NStr,
  relationship: NStr,
  is_primary: Type.Boolean(),
  status: Type.String({ description: 'pending | invited | accepted | completed | declined' }),
  accepted_at: NullableDateTime,
  completed_at: NullableDateTime,
  invite_token_sent_at: NullableDateTime,
  media_permission: NStr,
  photo_permission: NStr,
  travel_permission: NStr,
  emergency_medical_consent: NStr,
  otc_medication_consent: NStr,
  emergency_contacts: Type.Array(GuardianContact),
});

export const PortalChild = Type.Object({
  participant_event_id: Type.Integer(),
  display_name: Type.String(),
  full_name: Type.String(),
  date_of_birth: Nullable(DateOnly),
  age: Nullable(Type.Integer({ description: 'Whole years on the event’s start date' })),
  status: Type.String(),
  authorized_pickup_adults: Nullable(
    Type.String({ description: 'The adults who may collect the child at the door (set here by a guardian)' }),
  ),
  event: Type.Object({
    name: Type.String(),
    slug: Type.String(),
    starts_at: NullableDateTime,
    ends_at: NullableDateTime,
    timezone: Type.String(),
    location_city: NStr,
    support_email: Type.String(),
  }),
});

export const PortalPermission = Type.Object({
  key: Type.String(),
  label: Type.String(),
  required: Type.Boolean(),
  options: Type.Array(Type.String()),
  value: NStr,
});

export const PortalConsent = Type.Object({
  id: Type.Integer(),
  consent_type: Type.String(),
  status: Type.String(),
  pending_on: NStr,
  guardian_signed_at: NullableDateTime,
  signed_at: NullableDateTime,
});

export const PortalBody = Type.Object({
  guardian: PortalGuardian,
  child: PortalChild,
  permissions: Type.Array(PortalPermission),
  consents: Type.Array(PortalConsent, { description: 'Consents pending on a guardian' }),
  expires_at: DateTime,
});

export { PortalPatch, type PortalPatchInput } from '../../participants/record/sections.schemas.js';
