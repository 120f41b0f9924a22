/** Wire shapes of email announcements (docs/organiser-api.md). */
import { type Static, Type } from 'typebox';
import { DateTime, NullableDateTime } from '../../http/schema-helpers.js';
import { translationsSchema } from '../languages/translations.js';
import { RegistrationStatusSchema as Status } from '../participants/participants.schemas.js';

const AudienceSchema = Type.Union(
  [
    Type.Literal('participants'),
    Type.Literal('guardians_primary'),
    Type.Literal('guardians_all'),
    Type.Literal('staff'),
  ],
  {
    description:
      '`participants` (the registrations’ own addresses), `guardians_primary` / `guardians_all` (the primary / every guardian of registrations of minors: under 18 on the event’s first day), `staff` (users with a role on the event)',
  },
);
export type Audience = Static<typeof AudienceSchema>;
export const AUDIENCES: readonly Audience[] = AudienceSchema.anyOf.map((s) => s.const);
export const MAX_SUBJECT = 200;
export const MAX_BODY = 20_000;
/** The statuses an audience is drawn from when `statuses` is left out: everyone still taking part. */
export const DEFAULT_STATUSES = ['invited', 'in_progress', 'awaiting_guardian', 'complete'] as const;

const Texts = {
  subject: Type.String({ maxLength: 10_000, description: `Trimmed; 1..${MAX_SUBJECT} characters` }),
  body: Type.String({
    maxLength: 200_000,
    description: `Trimmed; 1..${MAX_BODY} characters. Plain text; blank lines separate paragraphs. Placeholders: \`{{name}}\`, \`{{participant_names}}\`, \`{{event_name}}\``,
  }),
};

export const ComposeRequest = Type.Object(
  {
    ...Texts,
    translations: Type.Optional(
      translationsSchema(
        Texts,
        'The subject and message (in the event’s default language above) — each recipient gets their language’s, else the default one under a note in their language —',
      ),
    ),
    audience: AudienceSchema,
    statuses: Type.Optional(
      Type.Array(Status, {
        minItems: 1,
        maxItems: 6,
        uniqueItems: true,
        description: `Registration statuses the participants or minors are drawn from; default ${DEFAULT_STATUSES.join(', ')}. Ignored for \`staff\`.`,
      }),
    ),
    send_at: Type.Optional(
      Type.Union([DateTime, Type.Null()], {
        description: 'Absent or null: send now. Otherwise a future time, at most a year ahead',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ComposeInput = Static<typeof ComposeRequest>;

export const Delivery = Type.Object(
  {
    queued: Type.Integer(),
    sent: Type.Integer(),
    delivered: Type.Integer(),
    opened: Type.Integer(),
    bounced: Type.Integer(),
    failed: Type.Integer(),
    suppressed: Type.Integer(),
  },
  {
    description:
      'Recipients per email state (the email log; `delivered`/`opened`/`bounced` from the provider)',
  },
);

export const Announcement = Type.Object({
  id: Type.Integer(),
  subject: Type.String(),
  body: Type.String(),
  translations: Type.Record(Type.String(), Type.Object({ subject: Type.String(), body: Type.String() }), {
    description: 'Subject and message in other languages, by language code (`{}` when none)',
  }),
  audience: Type.String({ description: AUDIENCES.join(' | ') }),
  statuses: Type.Array(Type.String()),
  status: Type.String({
    description: 'sending (queued for the worker) | scheduled | sent (emails queued) | cancelled',
  }),
  send_at: NullableDateTime,
  sent_at: NullableDateTime,
  recipient_count: Type.Integer({
    description: 'Distinct addresses the emails were queued for (0 until sent)',
  }),
  delivery: Delivery,
  created_at: DateTime,
  created_by: Type.String({ description: 'Name of the user who composed it' }),
});
export type AnnouncementJson = Static<typeof Announcement>;

export const Recipient = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  kind: Type.String({ description: 'participant | guardian | staff' }),
  status: Type.String({ description: 'queued | sent | delivered | opened | bounced | failed | suppressed' }),
  error: Type.Union([Type.String(), Type.Null()]),
  sent_at: NullableDateTime,
  bounced_at: NullableDateTime,
});
export type RecipientJson = Static<typeof Recipient>;

export const AnnouncementBody = Type.Object({ announcement: Announcement });
export const AnnouncementDetailBody = Type.Object({
  announcement: Announcement,
  recipients: Type.Array(Recipient),
  next_after: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Pass as `after` for the next recipients; null on the last page',
  }),
});
export const AnnouncementList = Type.Object({ announcements: Type.Array(Announcement) });
export const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export const DetailQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 1000 })),
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'Recipient id cursor' })),
  },
  { additionalProperties: false },
);

export const PreviewBody = Type.Object({
  preview: Type.Object({
    recipient_count: Type.Integer({ description: 'Distinct addresses the audience has now' }),
    recipient: Type.Object({ email: Type.String(), name: Type.String(), kind: Type.String() }),
    subject: Type.String(),
    text: Type.String(),
    html: Type.String(),
  }),
});
export type PreviewJson = Static<typeof PreviewBody>['preview'];
