/**
 * TypeBox shapes of the check-in desk's routes (staff-web/checkin.web.ts, checkin-data.web.ts).
 * The JSON routes are the page's own: hidden from the OpenAPI document (docs/checkin.md "Check-in
 * desk" documents them) and validated like every route. Every JSON post carries the page's CSRF
 * token in the `X-CSRF-Token` header (checked before validation, like every form of the web pages).
 */
import { Type } from 'typebox';
import { EventIdParam } from '../../http/schema-helpers.js';
import { BulkScanItem, MAX_BULK_SCANS } from '../checkin/checkin.schemas.js';

export const DeskParams = Type.Object({ event_id: EventIdParam }, { additionalProperties: false });

export const DeskQuery = Type.Object(
  { context: Type.Optional(Type.String({ maxLength: 12, description: 'Scan context id to preselect' })) },
  { additionalProperties: false },
);

/** GET …/run-sheet: which pickup context and which day (YYYY-MM-DD in the event's zone; default today). */
export const RunSheetQuery = Type.Object(
  {
    context: Type.Optional(Type.String({ maxLength: 12, description: 'Travel pickup context id' })),
    date: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
  },
  { additionalProperties: false },
);

/** POST …/checkin/scans: the API's bulk replay body (at least one scan). */
export const DeskScansBody = Type.Object(
  { scans: Type.Array(BulkScanItem, { minItems: 1, maxItems: MAX_BULK_SCANS }) },
  { additionalProperties: false },
);

/** POST …/checkin/undo: whose scans to undo, in which context. */
export const DeskUndoBody = Type.Object(
  {
    participant_id: Type.String({ minLength: 1, maxLength: 200, description: 'As DELETE /scans/{id}' }),
    scan_context_id: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

export const DeskSearchQuery = Type.Object(
  { q: Type.Optional(Type.String({ description: 'Search term (max 200 characters)' })) },
  { additionalProperties: false },
);

export const StreamQuery = Type.Object(
  { scan_context_id: Type.Optional(Type.Integer({ description: 'Only scans of this context' })) },
  { additionalProperties: false },
);

export const DeskParticipant = Type.Object({
  participant_event_id: Type.Integer(),
  participant_id: Type.Integer(),
  display_name: Type.String(),
  full_name: Type.String(),
  email: Type.String(),
  status: Type.String(),
  scanned_context_ids: Type.Array(Type.Integer()),
  attention_codes: Type.Array(Type.String(), {
    description: 'Attention codes of an entry here, but `already_scanned` (docs/checkin.md "Door verdicts")',
  }),
});

export const DeskSearchResult = Type.Object({ results: Type.Array(DeskParticipant) });
export const DeskRoster = Type.Object({ participants: Type.Array(DeskParticipant) });
export const DeskUndoResult = Type.Object({
  success: Type.Literal(true),
  deleted_scans: Type.Integer(),
  participant_event_id: Type.Integer(),
  scan_context_id: Type.Union([Type.Integer(), Type.Null()]),
});
