/** Export query and media types, shared by the API routes and the Exports page (docs/exports.md). */
import { Type } from 'typebox';
import type { ExportFormat } from './presets.js';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
/** The export filters (docs/exports.md "Filters"), shared by the API and the Exports page's downloads. */
export const ExportQuerySchema = Type.Object(
  {
    status: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'Comma-separated registration statuses to include, or `all`. Default: every status, except `complete` only for medical, dietary, catering, emergency contacts and the printouts.',
      }),
    ),
    minor: Type.Optional(Bool),
    checked_in: Type.Optional(Bool),
    group: Type.Optional(Type.String({ maxLength: 20, description: 'A group id of the event' })),
    scan_context: Type.Optional(
      Type.String({
        maxLength: 40,
        description:
          'A scan context id or UUID of the event: registrations scanned there (the door list: the context the list is for)',
      }),
    ),
    ids: Type.Optional(
      Type.String({
        maxLength: 5000,
        description:
          'Only these registrations: participant_event_ids separated by commas, at most 500 (a selection made in the participants table); ids of other events match nothing',
      }),
    ),
    layout: Type.Optional(
      Type.Union(
        [Type.Literal('a4'), Type.Literal('letter'), Type.Literal('label-4x3'), Type.Literal('label-62x100')],
        {
          description:
            'Badges: `a4` (default; A4 label sheet, 2 × 4 badges of 99.1 × 67.7 mm, Avery L7165), `letter` (US Letter, 2 × 3 badges of 4 × 3 in, Avery 5392), `label-4x3` or `label-62x100` (one badge per page for label printers)',
        },
      ),
    ),
    photos: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'Badges: print the photo when it is stored in Muster (`/media/…` PNG or JPEG)',
      }),
    ),
    headers: Type.Optional(
      Type.Union([Type.Literal('words'), Type.Literal('keys')], {
        description: '`keys`: machine column names (and machine values in CSV) for integrations',
      }),
    ),
  },
  { additionalProperties: false },
);
export const EXPORT_MEDIA: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};
