/**
 * Wire shapes of check-in (docs/decisions.md "Check-in"): scan contexts, scans, bulk replays, undo. The
 * `participant` of a scan response is the spec's Participant for the caller's visibility.
 */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable } from '../../http/schema-helpers.js';

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
  position: Type.Integer(),
  starts_at: Nullable(Type.String({ description: "ISO 8601 in the event's UTC offset" })),
  ends_at: Nullable(Type.String({ description: "ISO 8601 in the event's UTC offset" })),
});
export type ScanContextJson = Static<typeof ScanContext>;

export const ScanContextList = Type.Object({ scan_contexts: Type.Array(ScanContext) });

export const Scan = Type.Object({
  id: Type.Integer(),
  participant_event_id: Type.Integer(),
  scan_context_id: Type.Integer(),
  source: Type.Union([Type.Literal('qr'), Type.Literal('nfc'), Type.Literal('manual')]),
  client_scan_id: Nullable(Type.String()),
  scanned_at: DateTime,
  created_at: DateTime,
  scanner: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
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

export const ScanResult = Type.Object({
  success: Type.Literal(true),
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

export const BulkResult = Type.Object({
  results: Type.Array(
    Type.Object({
      client_scan_id: Type.String(),
      status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
      outcome: Type.Optional(Type.Union([Type.Literal('scanned'), Type.Literal('already_scanned')])),
      deduplicated: Type.Optional(Type.Boolean()),
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
