/**
 * Demo participants as import items (the demo goes through importParticipants, the same code path
 * as `muster import`). Every section is populated; about 30% are minors with 1–2 guardians.
 */
import type { Faker } from '@faker-js/faker';
import type { RegistrationStatus } from '../db/schema/index.js';
import type {
  ImportContact,
  ImportGuardian,
  ImportItem,
} from '../modules/participants/record/item.schema.js';
import {
  ALLERGIES,
  CONDITIONS,
  CONTACT_RELATIONSHIPS,
  COUNTRIES,
  DIETS,
  ENGAGEMENT,
  GENDERS,
  INTOLERANCES,
  RELATIONSHIPS,
  ROOM_TYPES,
  SEVERE_ALLERGIES,
  TSHIRT_SIZES,
} from './data.js';
import { demoTravel } from './travel.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

export interface DemoClock {
  /** Reference "now" (ms): consents were signed before it, scans happen just before it. */
  ref: number;
  startsAt: number;
  endsAt: number;
}

/** Fixed status slots so even a small demo has withdrawn, rejected, invited and in-progress people. */
function statusFor(i: number, minor: boolean, f: Faker): RegistrationStatus {
  if (i === 3) return 'rejected';
  const slot = i % 20;
  if (slot === 5 || slot === 14) return 'withdrawn';
  if (slot === 9) return 'invited';
  if (slot === 13 || slot === 17) return 'in_progress';
  return minor && f.datatype.boolean({ probability: 0.2 }) ? 'awaiting_guardian' : 'complete';
}

const ascii = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

function contact(f: Faker, lastName: string, priority: number, withEmail: boolean): ImportContact {
  const first = f.person.firstName();
  const relationship = f.helpers.arrayElement(CONTACT_RELATIONSHIPS);
  const last = f.datatype.boolean({ probability: 0.6 }) ? lastName : f.person.lastName();
  return {
    name: `${first} ${last}`,
    phone: f.phone.number({ style: 'international' }),
    email: withEmail ? `${ascii(first)}.${ascii(last)}@example.net` : null,
    relationship,
    priority,
  };
}

/** `count` participants, deterministic for the faker's seed. Emails are unique (example.com). */
export function demoParticipants(f: Faker, count: number, clock: DemoClock): ImportItem[] {
  const emails = new Set<string>();
  const items: ImportItem[] = [];
  for (let i = 0; i < count; i++) {
    const minor = f.datatype.boolean({ probability: 0.3 });
    const sex = f.person.sexType();
    const first = f.person.firstName(sex);
    const last = f.person.lastName();
    const age = minor ? f.number.int({ min: 12, max: 17 }) : f.number.int({ min: 18, max: 45 });
    const dob = day(clock.startsAt - age * 365.25 * DAY - f.number.int({ min: 1, max: 360 }) * DAY);
    let email = `${ascii(first)}.${ascii(last)}@example.com`;
    for (let n = 2; emails.has(email); n++) email = `${ascii(first)}.${ascii(last)}${n}@example.com`;
    emails.add(email);
    const status = statusFor(i, minor, f);
    const done = status === 'complete' || status === 'awaiting_guardian';
    const country = f.helpers.weightedArrayElement(
      COUNTRIES.map((c, k) => ({ weight: k === 0 ? 10 : 1, value: c })),
    );
    const address = {
      line_1: f.location.streetAddress(),
      line_2: f.datatype.boolean({ probability: 0.2 }) ? `Flat ${f.number.int({ min: 1, max: 40 })}` : null,
      city: f.location.city(),
      postal_code: f.location.zipCode(),
      country,
    };
    const allergy = f.datatype.boolean({ probability: 0.25 }) ? f.helpers.arrayElement(ALLERGIES) : null;
    const severe = allergy !== null && SEVERE_ALLERGIES.has(allergy);
    const condition = f.datatype.boolean({ probability: 0.2 }) ? f.helpers.arrayElement(CONDITIONS) : null;
    const diet = f.helpers.weightedArrayElement(DIETS);
    const signedAt = clock.ref - f.number.int({ min: 2, max: 40 }) * DAY;
    const guardians = minor ? demoGuardians(f, last, status, signedAt) : [];

    items.push({
      email,
      status,
      phone: f.phone.number({ style: 'international' }),
      pronouns: f.helpers.weightedArrayElement([
        { weight: 8, value: sex === 'female' ? 'she/her' : 'he/him' },
        { weight: 1, value: 'they/them' },
        { weight: 1, value: null },
      ]),
      headshot_url: f.datatype.boolean({ probability: 0.7 }) ? f.image.avatar() : null,
      chat_user_id:
        done && f.datatype.boolean({ probability: 0.7 })
          ? `U${f.string.alphanumeric({ length: 10, casing: 'upper' })}`
          : null,
      has_anaphylaxis_risk: severe,
      requires_refrigeration: condition?.fridge ?? false,
      cross_contamination_risk: severe && allergy !== 'shellfish',
      high_support_flag: f.datatype.boolean({ probability: minor ? 0.12 : 0.04 }),
      can_leave_unaccompanied: !minor || (age >= 16 && f.datatype.boolean({ probability: 0.5 })),
      allergies: allergy,
      life_threatening_allergies: severe ? allergy : null,
      medical_conditions: condition?.condition ?? null,
      medications:
        [condition?.medication, severe ? 'Adrenaline auto-injector (carries two)' : null]
          .filter(Boolean)
          .join('; ') || null,
      diet_type: diet,
      freedom_waiver_granted: !minor && f.datatype.boolean({ probability: 0.2 }),
      personal: {
        legal_first_name: first,
        legal_last_name: last,
        preferred_name: f.datatype.boolean({ probability: 0.2 }) ? f.person.firstName(sex) : null,
        date_of_birth: dob,
        tshirt_size: f.helpers.arrayElement(TSHIRT_SIZES),
        engagement_preference: f.helpers.arrayElement(ENGAGEMENT),
        engagement_notes: f.datatype.boolean({ probability: 0.2 }) ? 'Happy to help run a workshop.' : null,
        address,
      },
      accommodation: {
        check_in_date: day(clock.startsAt - DAY),
        check_out_date: day(clock.endsAt),
        gender_identity: f.helpers.weightedArrayElement(GENDERS),
        assigned_room:
          status === 'complete'
            ? `${f.helpers.arrayElement(['A', 'B', 'C'])}${f.number.int({ min: 101, max: 330 })}`
            : null,
        rooming_exempt: f.datatype.boolean({ probability: 0.05 }),
        venue_name: 'Riverside Hotel',
        room_type_preference: minor ? 'Shared (4 beds)' : f.helpers.arrayElement(ROOM_TYPES),
        quiet_room_preference: f.datatype.boolean({ probability: 0.3 }) ? 'Quiet floor please' : null,
        roommate_preferences: f.datatype.boolean({ probability: 0.25 })
          ? `${f.person.firstName()} ${f.person.lastName()}`
          : null,
        notes: null,
      },
      medical_detail: {
        allergy_severity: allergy ? (severe ? 'severe' : f.helpers.arrayElement(['mild', 'moderate'])) : null,
        emergency_action_plan: severe
          ? 'Use auto-injector in the outer thigh, call 999, then the emergency contact.'
          : null,
        additional_notes: condition ? `Manages own ${condition.condition.toLowerCase()}.` : null,
      },
      dietary_detail: {
        intolerances: f.datatype.boolean({ probability: 0.15 }) ? f.helpers.arrayElement(INTOLERANCES) : null,
        notes: severe ? `Strictly no ${allergy}, including traces.` : null,
      },
      accessibility: f.datatype.boolean({ probability: 0.15 })
        ? {
            mobility: f.helpers.arrayElement(['Wheelchair user', 'Uses crutches', 'Limited stamina']),
            step_free_access: true,
          }
        : { requirements: 'None declared' },
      safeguarding_detail: {
        high_support_notes:
          minor && f.datatype.boolean({ probability: 0.2 }) ? 'Check in with at mealtimes.' : null,
        authorized_pickup_adults: minor ? guardians.map((g) => g.name).join(', ') : null,
        other_instructions: null,
        curfew_acknowledged: done,
        overnight_rules_acknowledged: done,
      },
      consents: [
        {
          consent_type: 'waiver',
          status: done || status === 'withdrawn' ? 'signed' : status === 'in_progress' ? 'sent' : 'pending',
          pending_on: status === 'in_progress' ? (minor ? 'guardian' : 'participant') : null,
          sent_at: status === 'invited' ? null : iso(signedAt - DAY),
          participant_signed_at: done ? iso(signedAt - 3_600_000) : null,
          guardian_signed_at: done && minor ? iso(signedAt) : null,
          signed_at: done ? iso(signedAt) : null,
          document_url: done ? `https://sign.muster.example/documents/${f.string.uuid()}` : null,
        },
        {
          consent_type: 'code_of_conduct',
          status: status === 'invited' || status === 'in_progress' ? 'pending' : 'signed',
          signed_at: status === 'invited' || status === 'in_progress' ? null : iso(signedAt),
        },
      ],
      guardians,
      emergency_contacts: Array.from(
        { length: minor ? f.number.int({ min: 0, max: 1 }) : f.number.int({ min: 1, max: 2 }) },
        (_, k) => contact(f, last, 10 + k, false),
      ),
      ...(() => {
        const t = demoTravel(f, {
          minor,
          age,
          homeAddress: `${address.line_1}, ${address.city}`,
          homeCity: address.city,
          startsAt: clock.startsAt,
          endsAt: clock.endsAt,
        });
        return { travel_inbound: t.inbound, travel_outbound: t.outbound };
      })(),
    });
  }
  return items;
}

function demoGuardians(
  f: Faker,
  childLast: string,
  status: RegistrationStatus,
  signedAt: number,
): ImportGuardian[] {
  const count = f.number.int({ min: 1, max: 2 });
  return Array.from({ length: count }, (_, k) => {
    const first = f.person.firstName();
    const last = f.datatype.boolean({ probability: 0.8 }) ? childLast : f.person.lastName();
    const completed = status === 'complete';
    const email = `${ascii(first)}.${ascii(last)}.guardian@example.org`;
    return {
      name: `${first} ${last}`,
      email,
      phone: f.phone.number({ style: 'international' }),
      relationship: f.helpers.arrayElement(RELATIONSHIPS),
      is_primary: k === 0,
      status: completed ? 'completed' : status === 'awaiting_guardian' ? 'invited' : 'pending',
      invite_token_sent_at:
        status === 'invited' || status === 'in_progress' ? null : new Date(signedAt - 2 * DAY).toISOString(),
      invited_via_email: status === 'invited' || status === 'in_progress' ? null : email,
      accepted_at: completed ? new Date(signedAt - DAY).toISOString() : null,
      completed_at: completed ? new Date(signedAt).toISOString() : null,
      media_permission: f.helpers.arrayElement(['granted', 'granted', 'denied']),
      photo_permission: f.helpers.arrayElement(['granted', 'granted', 'denied']),
      travel_permission: 'granted',
      emergency_medical_consent: 'granted',
      otc_medication_consent: f.helpers.arrayElement(['granted', 'denied']),
      emergency_contacts: Array.from({ length: f.number.int({ min: 1, max: 2 }) }, (_, c) =>
        contact(f, last, k * 2 + c + 1, true),
      ),
    };
  });
}
