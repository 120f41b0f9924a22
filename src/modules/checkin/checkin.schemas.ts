/**
 * Wire shapes of check-in (docs/decisions.md "Check-in"): scan contexts, scans, bulk replays, undo. The
 * `participant` of a scan response is the spec's Participant for the caller's visibility.
 */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable } from '../../http/schema-helpers.js';
import { ATTENTION_CODES } from './verdict.js';

export const MAX_BULK_SCANS = 500;
export const MAX_CLIENT_SCAN_ID = 200;
export const LIST_NEWEST_LIMIT = 100;
export const LIST_SINCE_LIMIT = 500;

export const ScanContext = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  checks_in: Type.Boolean(),
  is_travel_pickup: Type.Boolean(),
  is_airport: Type.Boolean({ description: 'Deprecated alias of is_travel_pickup' }),
  refuse: Type.Array(Type.String(), {
    description:
      'Attention codes that refuse an entry here (default for check-in contexts: withdrawn, rejected, banned; other contexts: none)',
  }),
  tracks_presence: Type.Boolean({ description: 'Entry and exit scans here say who is inside' }),
  position: Type.Integer(),
  starts_at: Nullable(Type.String({ description: "ISO 8601 in the event's UTC offset" })),
  ends_at: Nullable(Type.String({ description: "ISO 8601 in the event's UTC offset" })),
});
export type ScanContextJson = Static<typeof ScanContext>;

export const ScanContextList = Type.Object({ scan_contexts: Type.Array(ScanContext) });

export const ScanTypeSchema = Type.Union([Type.Literal('entry'), Type.Literal('exit')], {
  description: '`entry` (default) or `exit` (only in a context that tracks presence)',
});
export const VerdictSchema = Type.Union(
  [Type.Literal('admitted'), Type.Literal('warning'), Type.Literal('refused')],
  { description: 'Door verdict: admitted, admitted with a warning, or refused' },
);
export const AttentionCodeSchema = Type.Union(ATTENTION_CODES.map((c) => Type.Literal(c)));
export const AttentionItem = Type.Object({
  code: Type.String({ description: `One of ${ATTENTION_CODES.join(', ')}` }),
  message: Type.String({ description: 'Plain words for the person at the door' }),
});

export const Scan = Type.Object({
  id: Type.Integer(),
  participant_event_id: Type.Integer(),
  scan_context_id: Type.Integer(),
  source: Type.Union([Type.Literal('qr'), Type.Literal('nfc'), Type.Literal('manual')]),
  client_scan_id: Nullable(Type.String()),
  scanned_at: DateTime,
  created_at: DateTime,
  scanner: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  type: ScanTypeSchema,
  verdict: VerdictSchema,
  attention_codes: Type.Array(Type.String(), {
    description: 'The attention codes the scan was recorded with (docs/checkin.md "Door verdicts")',
  }),
  forced: Type.Boolean({ description: 'A refused entry let in anyway by a role that may override' }),
});
export type ScanJson = Static<typeof Scan>;

const ScanFields = {
  participant_id: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1, maxLength: 200 })], {
      description:
        'A registration id (participant_event_id) or a person id registered in the event (a bare number is looked up as a registration id first, then as a person id); a `registration_uuid` (a ticket’s `qr_payload`), bare or after `muster://checkin/` or `attend://checkin/`; `muster://checkin/<person id>` (older printed badges); `attend://checkin/<number>`, read like a bare number. Anything else → 404 `Participant not found for this event`.',
    }),
  ),
  badge_token: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'NFC badge token of a registration in the event',
    }),
  ),
  scan_context_id: Type.Optional(
    Type.Integer({ description: 'A scan context of this event; may be omitted when the event has only one' }),
  ),
  source: Type.Optional(Type.Union([Type.Literal('qr'), Type.Literal('nfc'), Type.Literal('manual')])),
  scanned_at: Type.Optional(
    Type.String({ maxLength: 64, description: 'Client time of the scan (ISO 8601 with zone); default now' }),
  ),
  type: Type.Optional(ScanTypeSchema),
  force: Type.Optional(
    Type.Boolean({
      description:
        'Let a refused entry in anyway (event admins, safeguarding leads, series roles, global admins; others 403). Needs `reason`.',
    }),
  ),
  reason: Type.Optional(
    Type.String({ maxLength: 500, description: 'Why a refused entry was let in anyway (audited)' }),
  ),
  collected_by: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'The adult who collected the participant (required at the exit of a minor who may not leave alone)',
    }),
  ),
};

export const ScanRequest = Type.Object(
  {
    ...ScanFields,
    client_scan_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_CLIENT_SCAN_ID,
        description:
          'Device-generated id; a repeat for the same registration is answered from the stored scan',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ScanInput = Static<typeof ScanRequest>;

export const BulkScanItem = Type.Object(
  {
    ...ScanFields,
    client_scan_id: Type.String({ minLength: 1, maxLength: MAX_CLIENT_SCAN_ID }),
  },
  { additionalProperties: false },
);

export const BulkScanRequest = Type.Object(
  { scans: Type.Array(BulkScanItem, { maxItems: MAX_BULK_SCANS }) },
  { additionalProperties: false },
);
export type BulkScanInput = Static<typeof BulkScanRequest>;

const PickupAdults = Type.Optional(
  Nullable(
    Type.String({
      description:
        'The registration’s authorised pickup adults (exits of a minor who may not leave alone; callers who may read personal data only)',
    }),
  ),
);

export const ScanResult = Type.Object({
  success: Type.Literal(true),
  verdict: VerdictSchema,
  attention: Type.Array(AttentionItem),
  forced: Type.Boolean(),
  authorized_pickup_adults: PickupAdults,
  collected_by: Type.Optional(Nullable(Type.String())),
  outcome: Type.Union([Type.Literal('scanned'), Type.Literal('already_scanned')]),
  first_scan_in_context: Type.Boolean(),
  first_scanned_at: DateTime,
  deduplicated: Type.Boolean(),
  scan: Scan,
  scan_context: ScanContext,
  participant: Type.Object(
    {},
    { additionalProperties: true, description: 'Participant (spec) for the caller' },
  ),
});

export const ScanRefused = Type.Object(
  {
    error: Type.String({ description: 'Why, in words: `Not admitted: …`' }),
    verdict: Type.Literal('refused'),
    attention: Type.Array(AttentionItem),
    participant: Type.Object(
      {},
      { additionalProperties: true, description: 'Participant (spec) for the caller' },
    ),
  },
  { description: 'A refused scan: nothing was stored' },
);

export const ScanUnprocessable = Type.Object(
  {
    error: Type.String(),
    attention: Type.Optional(Type.Array(AttentionItem)),
    authorized_pickup_adults: PickupAdults,
  },
  {
    description:
      'Validation error; an exit of a minor who may not leave alone without `collected_by` adds the attention and, for callers who may read personal data, the authorised pickup adults',
  },
);

export const BulkResult = Type.Object({
  results: Type.Array(
    Type.Object({
      client_scan_id: Type.String(),
      status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
      outcome: Type.Optional(Type.Union([Type.Literal('scanned'), Type.Literal('already_scanned')])),
      deduplicated: Type.Optional(Type.Boolean()),
      verdict: Type.Optional(VerdictSchema),
      attention: Type.Optional(Type.Array(AttentionItem)),
      forced: Type.Optional(Type.Boolean()),
      error: Type.Optional(Type.String()),
    }),
  ),
});

export const ScanListQuery = Type.Object({
  since: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'A previous synced_at, verbatim: an ISO 8601 date-time (an earlier version’s `<ISO 8601>_<scan id>` is still read); anything else → 422',
    }),
  ),
  scan_context_id: Type.Optional(Type.Integer({ description: 'Only scans of this context of the event' })),
});
export type ScanListInput = Static<typeof ScanListQuery>;

export const ScanList = Type.Object({
  scans: Type.Array(Scan),
  has_more: Type.Boolean(),
  synced_at: Type.String({
    description: 'Cursor to pass back verbatim as `since`: a plain ISO 8601 UTC timestamp with microseconds',
  }),
});

export const UndoQuery = Type.Object({
  scan_context_id: Type.Optional(Type.Integer({ description: 'Only this context (default: all contexts)' })),
});

export const UndoResult = Type.Object({
  success: Type.Literal(true),
  deleted_scans: Type.Integer(),
  participant_event_id: Type.Integer(),
  scan_context_id: Nullable(Type.Integer()),
});

const ContextFields = {
  name: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Unique within the event (case-insensitive), trimmed',
  }),
  checks_in: Type.Boolean({ description: 'Scans here check the participant in' }),
  is_travel_pickup: Type.Boolean({ description: 'Scans here mark the inbound travel picked up' }),
  is_airport: Type.Boolean({
    description: 'Deprecated alias of is_travel_pickup (must agree when both are sent)',
  }),
  refuse: Nullable(
    Type.Array(AttentionCodeSchema, {
      maxItems: 20,
      description: 'Attention codes that refuse an entry here; null restores the default',
    }),
  ),
  tracks_presence: Type.Boolean({ description: 'Entry and exit scans here say who is inside' }),
  position: Type.Integer({ minimum: 0, maximum: 100000 }),
  starts_at: Nullable(Type.String({ maxLength: 64, description: 'ISO 8601 with zone, or null' })),
  ends_at: Nullable(Type.String({ maxLength: 64, description: 'ISO 8601 with zone, or null' })),
};

export const CreateContextRequest = Type.Object(
  {
    name: ContextFields.name,
    checks_in: Type.Optional(ContextFields.checks_in),
    is_travel_pickup: Type.Optional(ContextFields.is_travel_pickup),
    is_airport: Type.Optional(ContextFields.is_airport),
    refuse: Type.Optional(ContextFields.refuse),
    tracks_presence: Type.Optional(ContextFields.tracks_presence),
    position: Type.Optional(ContextFields.position),
    starts_at: Type.Optional(ContextFields.starts_at),
    ends_at: Type.Optional(ContextFields.ends_at),
  },
  { additionalProperties: false },
);
export type CreateContextInput = Static<typeof CreateContextRequest>;

export const UpdateContextRequest = Type.Partial(CreateContextRequest, { additionalProperties: false });
export type UpdateContextInput = Static<typeof UpdateContextRequest>;

export const ContextBody = Type.Object({ scan_context: ScanContext });
export const DeleteContextResult = Type.Object({
  success: Type.Literal(true),
  deleted_scans: Type.Integer(),
});
