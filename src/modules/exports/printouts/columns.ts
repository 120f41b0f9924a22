/**
 * What each printout reads (docs/exports.md "Printouts"), as export columns so the same visibility
 * classes apply: a column the caller may not see is never read. The door list's alerts use the
 * door verdicts' rules and words (docs/checkin.md "Door verdicts"), flags only, no details.
 */
import { AGE, b, CONTACTS, type Column, IS_MINOR, pii, s } from '../columns.js';

const FIRST_GROUP = (col: string) =>
  `(SELECT g.${col} FROM registration_groups rg JOIN groups g ON g.id = rg.group_id AND g.event_id = r.event_id WHERE rg.registration_id = r.id ORDER BY lower(g.name), g.id LIMIT 1)`;

const NAMES: Column[] = [
  b('id', 'Registration no.', 'r.id', 'int'),
  b('first', 'First name', 'p.legal_first_name'),
  b('last', 'Last name', 'p.legal_last_name'),
  b('preferred', 'Preferred name', 'p.preferred_name'),
];

export const BADGE_COLUMNS: Column[] = [
  ...NAMES,
  b('uuid', 'Registration UUID', 'r.uuid'),
  b('pronouns', 'Pronouns', 'p.pronouns'),
  b('group', 'Group', FIRST_GROUP('name')),
  b('color', 'Group colour', FIRST_GROUP('color')),
  b('photo', 'Photo', 'p.headshot_url'),
];

const BANNED = `EXISTS (SELECT 1 FROM ban_emails be JOIN bans bn ON bn.id = be.ban_id
  WHERE be.email = lower(btrim(p.email)) AND bn.revoked_at IS NULL AND (bn.expires_at IS NULL OR bn.expires_at > now()))`;
const WAIVER = `EXISTS (SELECT 1 FROM consents c WHERE c.registration_id = r.id AND c.consent_type = 'waiver' AND c.status = 'signed')`;

/** `ctx` in the door list's SQL is the scan context the list is for (NULL: none). */
export const DOOR_COLUMNS: Column[] = [
  ...NAMES,
  b('status', 'Status', 'r.status'),
  b('minor', 'Under 18', IS_MINOR, 'bool'),
  b('banned', 'Banned', BANNED, 'bool'),
  b('waiver', 'Waiver signed', WAIVER, 'bool'),
  b(
    'medical',
    'Medical alert',
    'COALESCE(med.has_anaphylaxis_risk, false) OR COALESCE(med.requires_refrigeration, false) OR COALESCE(diet.cross_contamination_risk, false)',
    'bool',
  ),
  b('high_support', 'High support', 'COALESCE(sg.high_support_flag, false)', 'bool'),
  b('may_leave', 'May leave unaccompanied', 'COALESCE(sg.can_leave_unaccompanied, false)', 'bool'),
];

const GUARDIANS = `(SELECT string_agg(concat_ws(', ', g.name || COALESCE(' (' || g.relationship || ')', ''), g.phone, g.email), E'\\n' ORDER BY g.is_primary DESC, g.id) FROM guardians g WHERE g.registration_id = r.id)`;
const CONTACT_LINES = `(SELECT string_agg(c.name || COALESCE(' (' || c.relationship || ')', '') || COALESCE(': ' || c.phone, '') || COALESCE(', ' || c.email, ''), E'\\n' ORDER BY c.priority, c.id) FROM emergency_contacts c WHERE c.registration_id = r.id)`;

export const MEDICAL_CARD_COLUMNS: Column[] = [
  ...NAMES,
  b('status', 'Status', 'r.status'),
  pii('dob', 'Date of birth', 'p.date_of_birth', 'date'),
  b('age', 'Age', AGE, 'int'),
  b('minor', 'Under 18', IS_MINOR, 'bool'),
  b('group', 'Group', FIRST_GROUP('name')),
  s('allergies', 'Allergies', 'med.allergies'),
  s('severity', 'Allergy severity', 'med.allergy_severity'),
  s('life', 'Life-threatening allergies', 'med.life_threatening_allergies'),
  b('anaphylaxis', 'Anaphylaxis risk', 'COALESCE(med.has_anaphylaxis_risk, false)', 'bool'),
  s('conditions', 'Medical conditions', 'med.medical_conditions'),
  s('medications', 'Medications', 'med.medications'),
  b('fridge', 'Medication needs a fridge', 'COALESCE(med.requires_refrigeration, false)', 'bool'),
  s('plan', 'Emergency action plan', 'med.emergency_action_plan'),
  s('notes', 'Medical notes', 'med.additional_notes'),
  s('diet', 'Diet', 'diet.diet_type'),
  s('intolerances', 'Intolerances', 'diet.intolerances'),
  s('contacts', 'Emergency contacts', CONTACT_LINES),
  s('guardians', 'Parents and guardians', GUARDIANS),
  s('pickup', 'Authorised pickup adults', 'sg.authorized_pickup_adults'),
  b('may_leave', 'May leave unaccompanied', 'COALESCE(sg.can_leave_unaccompanied, false)', 'bool'),
];

export const EMERGENCY_COLUMNS: Column[] = [
  ...NAMES,
  b('minor', 'Under 18', IS_MINOR, 'bool'),
  pii('phone', 'Phone', 'p.phone', 'phone'),
  s('contacts', 'Emergency contacts', CONTACTS),
  s('guardians', 'Parents and guardians', GUARDIANS),
  b(
    'medical',
    'Medical alert',
    'COALESCE(med.has_anaphylaxis_risk, false) OR COALESCE(med.requires_refrigeration, false) OR COALESCE(diet.cross_contamination_risk, false)',
    'bool',
  ),
  s('life', 'Life-threatening allergies', 'med.life_threatening_allergies'),
  s('pickup', 'Authorised pickup adults', 'sg.authorized_pickup_adults'),
];
