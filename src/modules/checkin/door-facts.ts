/**
 * What a scan's verdict is computed from (verdict.ts DoorFacts), read for one scan or a whole
 * group-commit batch by ONE prepared statement that also resolves each item's context and
 * registration (docs/checkin.md "Door verdicts"). Read before the scan is written, so a refused
 * scan writes nothing; `already_scanned` therefore reflects the scans committed before the read.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { preparedSql } from '../../db/prepared.js';
import { one } from '../../db/rows.js';
import { CONTEXT_COLUMNS, type ContextRow } from './contexts.js';
import { type ParticipantRef, registrationIdSql } from './participant-ref.js';
import type { DoorFacts } from './verdict.js';

const p = (name: string) => sql.placeholder(name);

/** The registration an item names: registrationIdSql() chosen by the item's `kind`. */
const itemRegistration = sql`CASE x.kind
  WHEN 'number' THEN ${registrationIdSql('number', p('event'), sql`x.num`)}
  WHEN 'person' THEN ${registrationIdSql('person', p('event'), sql`x.num`)}
  WHEN 'uuid' THEN ${registrationIdSql('uuid', p('event'), sql`x.ref`)}
  WHEN 'badge' THEN ${registrationIdSql('badge', p('event'), sql`x.ref`)} END`;

/** The facts of registration `q.reg_id` in context `q.context_id` (one JSON object, or no row). */
const FACTS = sql`SELECT json_build_object(
    'status', r.status,
    'date_of_birth', pe.date_of_birth::text,
    'event_start_date', to_char(coalesce(e.starts_at, now()) AT TIME ZONE e.timezone, 'YYYY-MM-DD'),
    'banned', EXISTS (SELECT 1 FROM ban_emails be JOIN bans b ON b.id = be.ban_id
                       WHERE be.email = lower(btrim(pe.email)) AND b.revoked_at IS NULL
                         AND (b.expires_at IS NULL OR b.expires_at > now())),
    'waiver_signed', EXISTS (SELECT 1 FROM consents c WHERE c.registration_id = r.id
                               AND c.consent_type = 'waiver' AND c.status = 'signed'),
    'anaphylaxis', COALESCE(med.has_anaphylaxis_risk, false),
    'refrigeration', COALESCE(med.requires_refrigeration, false),
    'cross_contamination', COALESCE(diet.cross_contamination_risk, false),
    'allergies', med.life_threatening_allergies,
    'high_support', COALESCE(sg.high_support_flag, false),
    'can_leave_unaccompanied', COALESCE(sg.can_leave_unaccompanied, false),
    'pickup_adults', sg.authorized_pickup_adults,
    'entries', (SELECT count(*)::int FROM scans s WHERE s.registration_id = r.id
                  AND s.scan_context_id = q.context_id AND s.type = 'entry'),
    'last_type', (SELECT s.type FROM scans s WHERE s.registration_id = r.id AND s.scan_context_id = q.context_id
                   ORDER BY s.scanned_at DESC, s.id DESC LIMIT 1),
    'dup', q.client_scan_id IS NOT NULL AND EXISTS (SELECT 1 FROM scans s
                   WHERE s.registration_id = r.id AND s.client_scan_id = q.client_scan_id)) AS facts
  FROM registrations r JOIN people pe ON pe.id = r.person_id JOIN events e ON e.id = r.event_id
  LEFT JOIN registration_medical med ON med.registration_id = r.id
  LEFT JOIN registration_dietary diet ON diet.registration_id = r.id
  LEFT JOIN registration_safeguarding sg ON sg.registration_id = r.id
 WHERE r.id = q.reg_id`;

/**
 * The statement. Values: `event` (id) and `items` (JSON array of factsItem()). Columns: `contexts`
 * (the event's contexts, JSON array of ContextRow) and `resolved` (per item: `i`, `reg_id`, `n` =
 * contexts matching its `scan_context_id` (all when it sent none), `context_id`, `facts`).
 */
const factsStatement = preparedSql<{ contexts: string | null; resolved: string }>(
  'door_facts',
  () => sql`WITH x AS (SELECT * FROM json_to_recordset(${p('items')}::json)
                        AS x(i int, context int, kind text, num int, ref text, client_scan_id text)),
       c AS (SELECT ${CONTEXT_COLUMNS} FROM scan_contexts sc JOIN events e ON e.id = sc.event_id
              WHERE sc.event_id = ${p('event')}),
       q AS (SELECT x.i, x.client_scan_id, ${itemRegistration} AS reg_id,
                    (SELECT count(*)::int FROM c WHERE x.context IS NULL OR c.id = x.context) AS n,
                    COALESCE(x.context, (SELECT min(c.id) FROM c)) AS context_id
               FROM x)
  SELECT (SELECT json_agg(c)::text FROM c) AS contexts,
         (SELECT json_agg(json_build_object('i', q.i, 'reg_id', q.reg_id, 'n', q.n, 'context_id', q.context_id,
                   'facts', f.facts))::text
            FROM q LEFT JOIN LATERAL (${FACTS}) f ON true) AS resolved`,
);

/** DoorFacts plus what the scan path needs besides the verdict. */
export type ScanFacts = DoorFacts & {
  /** The registration's authorised pickup adults (shown only to callers who may read PII). */
  pickup_adults: string | null;
  /** A scan with this client_scan_id is already stored (the answer repeats it). */
  dup: boolean;
};

export type ResolvedItem = {
  i: number;
  reg_id: number | null;
  n: number;
  context_id: number | null;
  facts: ScanFacts | null;
};

/** One item to resolve: its position, context, participant reference and client_scan_id. */
export type FactsItem = {
  i: number;
  contextId: number | undefined;
  ref: ParticipantRef;
  clientScanId: string | null;
};

function factsItem({ i, contextId, ref, clientScanId }: FactsItem) {
  return {
    i,
    context: contextId ?? null,
    kind: ref.kind,
    num: ref.kind === 'number' || ref.kind === 'person' ? ref.value : null,
    ref: ref.kind === 'uuid' || ref.kind === 'badge' ? ref.value : null,
    client_scan_id: clientScanId,
  };
}

/** Resolves the items and reads their facts: the event's contexts by id, and each item by `i`. */
export async function readDoorFacts(
  db: Tx,
  eventId: number,
  items: FactsItem[],
): Promise<{ contexts: Map<number, ContextRow>; resolved: Map<number, ResolvedItem> }> {
  const res = await factsStatement(db).execute({
    event: eventId,
    items: JSON.stringify(items.map(factsItem)),
  });
  const row = one(res.rows);
  const contexts = new Map((JSON.parse(row.contexts ?? '[]') as ContextRow[]).map((c) => [c.id, c]));
  const resolved = new Map((JSON.parse(row.resolved) as ResolvedItem[]).map((r) => [r.i, r]));
  return { contexts, resolved };
}
