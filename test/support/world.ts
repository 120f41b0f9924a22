/**
 * The authorization-matrix world (quality.md): series S1 with events A and B (siblings), series S2
 * with event C (foreign); one user per role; one credential per principal; registrations with
 * every section populated. Built in one transaction through drizzle and the record services — it
 * does not depend on the CLI or the demo seed.
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../../src/db/client.js';
import {
  accessibilityDetails,
  accommodations,
  consents,
  dietaryDetails,
  emergencyContacts,
  eventApiKeys,
  globalApiTokens,
  guardians,
  medicalDetails,
  mobileTokens,
  people,
  type RegistrationStatus,
  registrations,
  safeguardingDetails,
  scanContexts,
  scans,
  travelLegs,
  travels,
} from '../../src/db/schema/index.js';
import type { Deps } from '../../src/deps.js';
import {
  createUser,
  grantEventRole,
  grantSeriesRole,
  setGlobalAdmin,
} from '../../src/modules/accounts/users.service.js';
import {
  issueEventKey,
  issueGlobalToken,
  issueLegacyEventKey,
  issueMobileToken,
  issueSeriesKey,
} from '../../src/modules/credentials/issue.service.js';
import {
  createEventRecord,
  createSeries,
  type EventRow,
  type SeriesRow,
} from '../../src/modules/events/records.service.js';

/** Every principal of the matrix (quality.md "Authorization matrix"). */
export const PRINCIPALS = [
  'none',
  'garbage',
  'badChecksum',
  'revokedEventKey',
  'expiredMobile',
  'revokedMobile',
  'expiredGlobal',
  'revokedGlobal',
  'demotedGlobal',
  'participant',
  'readOnly',
  'limited',
  'ops',
  'eventAdmin',
  'safeguarding',
  'seriesOwner',
  'seriesOrganizer',
  'admin',
  'globalToken',
  'scopedToken',
  'seriesKeyS1',
  'seriesKeyS2',
  'eventKeyA',
  'eventKeyB',
  'eventKeyC',
  'legacyKeyA',
] as const;
export type PrincipalName = (typeof PRINCIPALS)[number];

export type UserName =
  | 'participant'
  | 'readOnly'
  | 'limited'
  | 'ops'
  | 'eventAdmin'
  | 'safeguarding'
  | 'seriesOwner'
  | 'seriesOrganizer'
  | 'admin'
  | 'demoted';

export interface WorldUser {
  id: number;
  uuid: string;
  email: string;
  name: string;
  /** A live 14-day mobile token. */
  mobile: string;
}

export interface WorldRegistration {
  id: number;
  personId: number;
  eventId: number;
  email: string;
  status: RegistrationStatus;
  firstName: string;
  lastName: string;
  preferredName: string | null;
  hasInbound: boolean;
  hasOutbound: boolean;
  hasGuardian: boolean;
}

export interface World {
  series: { S1: SeriesRow; S2: SeriesRow };
  events: { A: EventRow; B: EventRow; C: EventRow };
  users: Record<UserName, WorldUser>;
  /** The bearer secret each principal presents; `undefined` = no Authorization header. */
  secrets: Record<PrincipalName, string | undefined>;
  regs: {
    adultA: WorldRegistration;
    minorA: WorldRegistration;
    withdrawnA: WorldRegistration;
    rejectedA: WorldRegistration;
    regB: WorldRegistration;
    regC: WorldRegistration;
  };
  contexts: { checkInA: number; pickupA: number; lunchA: number; checkInB: number; checkInC: number };
  legs: { inboundA1: number; inboundA2: number };
  guardianA: number;
}

/** Replaces one character of the random body of an `mst_` secret: same format, wrong checksum. */
export function breakChecksum(secret: string, at = 10): string {
  const c = secret[at]!;
  const replacement = c === 'A' ? 'B' : 'A';
  return secret.slice(0, at) + replacement + secret.slice(at + 1);
}

const DAY = 24 * 60 * 60 * 1000;

export async function buildWorld(deps: Pick<Deps, 'db'>): Promise<World> {
  return deps.db.transaction(async (tx) => {
    const S1 = await createSeries(tx, { name: 'Summit Series', slug: 'summit-series' });
    const S2 = await createSeries(tx, { name: 'Foreign Series', slug: 'foreign-series' });
    const A = await createEventRecord(tx, {
      seriesId: S1.id,
      name: 'Summit Alpha',
      slug: 'summit-alpha',
      supportEmail: 'alpha@muster.example',
      timezone: 'Europe/London',
      startsAt: '2026-07-10T08:00:00Z',
      endsAt: '2026-07-14T17:00:00Z',
      locationCity: 'London',
      setupComplete: true,
      modules: { nfc_badges_enabled: false, travel_enabled: true },
    });
    const B = await createEventRecord(tx, {
      seriesId: S1.id,
      name: 'Summit Beta',
      slug: 'summit-beta',
      supportEmail: 'beta@muster.example',
      startsAt: '2026-06-01T08:00:00Z',
      endsAt: '2026-06-03T17:00:00Z',
      locationCity: 'Leeds',
      setupComplete: true,
      modules: { nfc_badges_enabled: true, travel_enabled: false },
    });
    const C = await createEventRecord(tx, {
      seriesId: S2.id,
      name: 'Foreign Gamma',
      slug: 'foreign-gamma',
      supportEmail: 'gamma@events.muster.example',
      startsAt: '2026-08-01T08:00:00Z',
      endsAt: '2026-08-02T17:00:00Z',
      setupComplete: true,
    });

    const mkUser = async (key: UserName, name: string, globalAdmin = false): Promise<WorldUser> => {
      const row = await createUser(tx, { email: `${key.toLowerCase()}@muster.test`, name, globalAdmin });
      const token = await issueMobileToken(tx, row.id, { deviceName: `${key} phone` });
      return { id: row.id, uuid: row.uuid, email: row.email, name: row.name, mobile: token.secret };
    };
    const users: Record<UserName, WorldUser> = {
      participant: await mkUser('participant', 'Alice Anderson'),
      readOnly: await mkUser('readOnly', 'Rita Readonly'),
      limited: await mkUser('limited', 'Lee Limited'),
      ops: await mkUser('ops', 'Olga Ops'),
      eventAdmin: await mkUser('eventAdmin', 'Evan Eventadmin'),
      safeguarding: await mkUser('safeguarding', 'Sally Safeguarding'),
      seriesOwner: await mkUser('seriesOwner', 'Owen Owner'),
      seriesOrganizer: await mkUser('seriesOrganizer', 'Orla Organizer'),
      admin: await mkUser('admin', 'Ada Admin', true),
      demoted: await mkUser('demoted', 'Dora Demoted', true),
    };
    await grantEventRole(tx, users.readOnly.id, A.id, 'read_only');
    await grantEventRole(tx, users.limited.id, A.id, 'limited');
    await grantEventRole(tx, users.ops.id, A.id, 'ops');
    await grantEventRole(tx, users.eventAdmin.id, A.id, 'event_admin');
    await grantEventRole(tx, users.safeguarding.id, A.id, 'safeguarding_lead');
    await grantSeriesRole(tx, users.seriesOwner.id, S1.id, 'owner');
    await grantSeriesRole(tx, users.seriesOrganizer.id, S1.id, 'organizer');

    // Credentials that must be refused (401).
    const expiredMobile = await issueMobileToken(tx, users.ops.id, { now: new Date(Date.now() - 30 * DAY) });
    const revokedMobile = await issueMobileToken(tx, users.eventAdmin.id);
    await tx
      .update(mobileTokens)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(mobileTokens.id, revokedMobile.id));
    const globalToken = await issueGlobalToken(tx, users.admin.id, { name: 'Integration (full)' });
    const scopedToken = await issueGlobalToken(tx, users.admin.id, {
      name: 'Ban sync',
      scopes: ['bans:write'],
    });
    const expiredGlobal = await issueGlobalToken(tx, users.admin.id, {
      name: 'Expired',
      expiresAt: new Date(Date.now() - DAY).toISOString(),
    });
    const revokedGlobal = await issueGlobalToken(tx, users.admin.id, { name: 'Revoked' });
    await tx
      .update(globalApiTokens)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(globalApiTokens.id, revokedGlobal.id));
    const demotedGlobal = await issueGlobalToken(tx, users.demoted.id, { name: 'Demoted owner token' });
    await setGlobalAdmin(tx, users.demoted.id, false);

    const seriesKeyS1 = await issueSeriesKey(tx, S1.id, {
      name: 'S1 integration',
      ownerUserId: users.seriesOwner.id,
    });
    const seriesKeyS2 = await issueSeriesKey(tx, S2.id, { name: 'S2 integration', ownerUserId: null });
    const eventKeyA = await issueEventKey(tx, A.id, { name: 'A key', ownerUserId: users.eventAdmin.id });
    const eventKeyB = await issueEventKey(tx, B.id, { name: 'B key', ownerUserId: null });
    const eventKeyC = await issueEventKey(tx, C.id, { name: 'C key', ownerUserId: null });
    const legacyKeyA = await issueLegacyEventKey(tx, A.id, 'A legacy key');
    const revokedEventKey = await issueEventKey(tx, A.id, { name: 'A revoked key', ownerUserId: null });
    await tx
      .update(eventApiKeys)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(eventApiKeys.id, revokedEventKey.id));

    const secrets: Record<PrincipalName, string | undefined> = {
      none: undefined,
      garbage: 'garbage',
      badChecksum: breakChecksum(eventKeyA.secret),
      revokedEventKey: revokedEventKey.secret,
      expiredMobile: expiredMobile.secret,
      revokedMobile: revokedMobile.secret,
      expiredGlobal: expiredGlobal.secret,
      revokedGlobal: revokedGlobal.secret,
      demotedGlobal: demotedGlobal.secret,
      participant: users.participant.mobile,
      readOnly: users.readOnly.mobile,
      limited: users.limited.mobile,
      ops: users.ops.mobile,
      eventAdmin: users.eventAdmin.mobile,
      safeguarding: users.safeguarding.mobile,
      seriesOwner: users.seriesOwner.mobile,
      seriesOrganizer: users.seriesOrganizer.mobile,
      admin: users.admin.mobile,
      globalToken: globalToken.secret,
      scopedToken: scopedToken.secret,
      seriesKeyS1: seriesKeyS1.secret,
      seriesKeyS2: seriesKeyS2.secret,
      eventKeyA: eventKeyA.secret,
      eventKeyB: eventKeyB.secret,
      eventKeyC: eventKeyC.secret,
      legacyKeyA: legacyKeyA.secret,
    };

    // Scan contexts: each event has its default `Event check-in`; A also has a travel pickup and a
    // non-check-in context.
    const checkIn = async (eventId: number) => {
      const [row] = await tx.select().from(scanContexts).where(eq(scanContexts.eventId, eventId));
      return row!.id;
    };
    const [pickup] = await tx
      .insert(scanContexts)
      .values({ eventId: A.id, name: 'Airport pickup', isTravelPickup: true, position: 1 })
      .returning();
    const [lunch] = await tx
      .insert(scanContexts)
      .values({ eventId: A.id, name: 'Lunch', position: 2 })
      .returning();
    const contexts = {
      checkInA: await checkIn(A.id),
      pickupA: pickup!.id,
      lunchA: lunch!.id,
      checkInB: await checkIn(B.id),
      checkInC: await checkIn(C.id),
    };

    const adultA = await addRegistration(tx, {
      eventId: A.id,
      userId: users.participant.id,
      email: 'alice.anderson@example.com',
      firstName: 'Alice',
      lastName: 'Anderson',
      preferredName: 'Ali',
      dateOfBirth: '1990-04-01',
      status: 'complete',
    });
    await populateSections(tx, adultA.id);
    await tx.insert(consents).values([
      {
        registrationId: adultA.id,
        consentType: 'waiver',
        status: 'signed',
        sentAt: '2026-05-01T10:00:00Z',
        viewedAt: '2026-05-01T11:00:00Z',
        participantSignedAt: '2026-05-01T12:00:00Z',
        signedAt: '2026-05-01T12:00:00Z',
        documentUrl: 'https://esign.example/doc/1',
        signatureName: 'Alice Anderson',
      },
      {
        registrationId: adultA.id,
        consentType: 'code_of_conduct',
        status: 'pending',
        pendingOn: 'participant',
      },
    ]);
    await tx.insert(emergencyContacts).values({
      registrationId: adultA.id,
      name: 'Andy Anderson',
      phone: '+447700900001',
      email: 'andy@example.com',
      relationship: 'brother',
      priority: 1,
    });
    const [inbound] = await tx
      .insert(travels)
      .values({
        registrationId: adultA.id,
        direction: 'inbound',
        mode: 'plane',
        visaRequired: true,
        visaStatus: 'approved',
        visaType: 'visitor',
        visaNumber: 'V123456',
        passportNationality: 'US',
        carrier: 'Transatlantic Air',
        flightNumber: 'TA100',
        departureCity: 'Boston',
        arrivalCity: 'London',
        departureTime: '2026-07-08T20:00:00Z',
        arrivalTime: '2026-07-09T13:00:00Z',
        expectedArrivalTime: '2026-07-09T15:00:00Z',
        originAddress: '1 Beacon St, Boston MA',
        otherDetails: 'Window seat',
        notes: 'Meet at arrivals',
      })
      .returning();
    const [leg1, leg2] = await tx
      .insert(travelLegs)
      .values([
        {
          travelId: inbound!.id,
          position: 1,
          flightCode: 'TA100',
          departureAirport: 'BOS',
          arrivalAirport: 'DUB',
          departureTime: '2026-07-08T20:00:00Z',
          arrivalTime: '2026-07-09T06:00:00Z',
          liveStatus: 'scheduled',
        },
        {
          travelId: inbound!.id,
          position: 2,
          flightCode: 'TA200',
          departureAirport: 'DUB',
          arrivalAirport: 'LHR',
          departureTime: '2026-07-09T11:30:00Z',
          arrivalTime: '2026-07-09T13:00:00Z',
          liveStatus: 'landed',
          liveArrivalTime: '2026-07-09T13:10:00Z',
          travelPickedUpAt: '2026-07-09T15:00:00Z',
        },
      ])
      .returning();
    await tx.insert(travels).values({
      registrationId: adultA.id,
      direction: 'outbound',
      mode: 'train',
      trainDepartureStation: 'London Euston',
      trainArrivalStation: 'Manchester Piccadilly',
      departureTime: '2026-07-14T18:00:00Z',
      originAddress: 'Summit venue',
    });
    await tx
      .insert(scans)
      .values([
        scan(A.id, adultA.id, contexts.lunchA, '2026-07-10T08:00:00Z', 'scanned'),
        scan(A.id, adultA.id, contexts.checkInA, '2026-07-10T09:00:00Z', 'scanned'),
        scan(A.id, adultA.id, contexts.checkInA, '2026-07-10T10:00:00Z', 'already_scanned'),
        scan(A.id, adultA.id, contexts.pickupA, '2026-07-09T15:00:00Z', 'scanned'),
      ]);
    // A badge token exists, but A's NFC module is off: the API must show nfc_badge_token null.
    await tx
      .update(registrations)
      .set({ nfcBadgeToken: 'badge-alice', nfcBadgeAssignedAt: '2026-07-10T09:00:00Z' })
      .where(eq(registrations.id, adultA.id));

    const minorA = await addRegistration(tx, {
      eventId: A.id,
      email: 'max.minor@example.com',
      firstName: 'Max',
      lastName: 'Minor',
      preferredName: null,
      dateOfBirth: '2012-05-05',
      status: 'awaiting_guardian',
    });
    await populateSections(tx, minorA.id);
    await tx
      .insert(consents)
      .values({ registrationId: minorA.id, consentType: 'waiver', status: 'sent', pendingOn: 'guardian' });
    const [primaryGuardian] = await tx
      .insert(guardians)
      .values([
        {
          registrationId: minorA.id,
          name: 'Gina Guardian',
          email: 'gina.guardian@example.com',
          phone: '+447700900100',
          relationship: 'mother',
          isPrimary: true,
          status: 'accepted',
          acceptedAt: '2026-05-02T09:00:00Z',
          inviteTokenSentAt: '2026-05-01T09:00:00Z',
          invitedViaEmail: 'gina.guardian@example.com',
          mediaPermission: 'yes',
          photoPermission: 'no',
          travelPermission: 'yes',
          emergencyMedicalConsent: 'yes',
          otcMedicationConsent: 'paracetamol only',
        },
        {
          registrationId: minorA.id,
          name: 'Gus Guardian',
          email: 'gus.guardian@example.com',
          phone: '+447700900101',
          relationship: 'father',
          isPrimary: false,
          status: 'pending',
        },
      ])
      .returning();
    await tx.insert(emergencyContacts).values([
      {
        registrationId: minorA.id,
        guardianId: primaryGuardian!.id,
        name: 'Grandma Minor',
        phone: '+447700900200',
        email: 'grandma@example.com',
        relationship: 'grandmother',
        priority: 2,
      },
      {
        registrationId: minorA.id,
        name: 'Uncle Minor',
        phone: '+447700900201',
        relationship: 'uncle',
        priority: 1,
      },
    ]);

    const withdrawnA = await addRegistration(tx, {
      eventId: A.id,
      email: 'wanda.withdrawn@example.com',
      firstName: 'Wanda',
      lastName: 'Withdrawn',
      preferredName: null,
      dateOfBirth: null,
      status: 'withdrawn',
    });
    const rejectedA = await addRegistration(tx, {
      eventId: A.id,
      email: 'rex.rejected@example.com',
      firstName: 'Rex',
      lastName: 'Rejected',
      preferredName: null,
      dateOfBirth: null,
      status: 'rejected',
    });

    const regB = await addRegistration(tx, {
      eventId: B.id,
      email: 'bob.baker@example.com',
      firstName: 'Bob',
      lastName: 'Baker',
      preferredName: 'Bobby',
      dateOfBirth: '1985-01-01',
      status: 'complete',
    });
    await populateSections(tx, regB.id);
    await tx.insert(consents).values({
      registrationId: regB.id,
      consentType: 'waiver',
      status: 'signed',
      signedAt: '2026-05-03T10:00:00Z',
    });
    // B has NFC on: the badge token is shown.
    await tx
      .update(registrations)
      .set({ nfcBadgeToken: 'badge-bob', nfcBadgeAssignedAt: '2026-06-01T09:00:00Z' })
      .where(eq(registrations.id, regB.id));
    await tx.insert(scans).values(scan(B.id, regB.id, contexts.checkInB, '2026-06-01T09:00:00Z', 'scanned'));

    const regC = await addRegistration(tx, {
      eventId: C.id,
      email: 'carol.clark@example.com',
      firstName: 'Carol',
      lastName: 'Clark',
      preferredName: null,
      dateOfBirth: '1999-09-09',
      status: 'complete',
    });
    await populateSections(tx, regC.id);

    return {
      series: { S1, S2 },
      events: { A, B, C },
      users,
      secrets,
      regs: {
        adultA: { ...adultA, hasInbound: true, hasOutbound: true },
        minorA: { ...minorA, hasGuardian: true },
        withdrawnA,
        rejectedA,
        regB,
        regC,
      },
      contexts,
      legs: { inboundA1: leg1!.id, inboundA2: leg2!.id },
      guardianA: primaryGuardian!.id,
    };
  });
}

function scan(
  eventId: number,
  registrationId: number,
  scanContextId: number,
  scannedAt: string,
  outcome: 'scanned' | 'already_scanned',
) {
  return { eventId, registrationId, scanContextId, scannedAt, outcome, source: 'qr' as const };
}

export interface NewRegistration {
  eventId: number;
  email: string;
  firstName: string;
  lastName: string;
  preferredName: string | null;
  dateOfBirth: string | null;
  status: RegistrationStatus;
  userId?: number;
  phone?: string | null;
}

/** A person plus a registration (no sections). */
export async function addRegistration(tx: Tx, input: NewRegistration): Promise<WorldRegistration> {
  const [person] = await tx
    .insert(people)
    .values({
      userId: input.userId ?? null,
      email: input.email,
      legalFirstName: input.firstName,
      legalLastName: input.lastName,
      preferredName: input.preferredName,
      pronouns: 'they/them',
      phone: input.phone === undefined ? '+447700900999' : input.phone,
      dateOfBirth: input.dateOfBirth,
      headshotUrl: 'https://img.example/h.png',
      chatUserId: `U${input.firstName.toUpperCase()}`,
      address: { line_1: '1 High Street', city: 'London', postal_code: 'N1 1AA', country: 'GB' },
    })
    .returning();
  const [reg] = await tx
    .insert(registrations)
    .values({
      eventId: input.eventId,
      personId: person!.id,
      status: input.status,
      tshirtSize: 'M',
      engagementPreference: 'high',
      engagementNotes: 'Keen',
      freedomWaiverGranted: input.status === 'complete',
    })
    .returning();
  return {
    id: reg!.id,
    personId: person!.id,
    eventId: input.eventId,
    email: input.email,
    status: input.status,
    firstName: input.firstName,
    lastName: input.lastName,
    preferredName: input.preferredName,
    hasInbound: false,
    hasOutbound: false,
    hasGuardian: false,
  };
}

/** Accommodation, medical, dietary, accessibility and safeguarding sections. */
export async function populateSections(tx: Tx, registrationId: number): Promise<void> {
  await tx.insert(accommodations).values({
    registrationId,
    checkInDate: '2026-07-09',
    checkOutDate: '2026-07-14',
    genderIdentity: 'woman',
    assignedRoom: '101',
    venueName: 'Summit Hotel',
    preferredRoommateGenders: 'any',
    roommatePreferences: 'quiet',
    roommateExclusions: 'none',
    quietRoomPreference: 'yes',
    roomTypePreference: 'twin',
    accessibilityNeeds: 'ground floor',
    notes: 'Late arrival',
  });
  await tx.insert(medicalDetails).values({
    registrationId,
    allergies: 'Peanuts',
    medicalConditions: 'Asthma',
    medications: 'Inhaler',
    lifeThreateningAllergies: 'Peanuts',
    allergySeverity: 'severe',
    emergencyActionPlan: 'EpiPen then 999',
    additionalNotes: 'Carries two pens',
    hasAnaphylaxisRisk: true,
    requiresRefrigeration: true,
  });
  await tx.insert(dietaryDetails).values({
    registrationId,
    dietType: 'vegetarian',
    intolerances: 'lactose',
    notes: 'No mushrooms',
    crossContaminationRisk: true,
  });
  await tx
    .insert(accessibilityDetails)
    .values({ registrationId, data: { wheelchair: true, notes: 'Needs ramp' } });
  await tx.insert(safeguardingDetails).values({
    registrationId,
    highSupportNotes: 'Check in twice daily',
    authorizedPickupAdults: 'Gina Guardian',
    otherInstructions: 'None',
    curfewAcknowledged: true,
    overnightRulesAcknowledged: true,
    highSupportFlag: true,
    canLeaveUnaccompanied: false,
  });
}
