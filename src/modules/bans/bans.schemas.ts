/**
 * Wire shapes of the ban list (spec "Ban", "POST /bans"; docs/decisions.md "Series, events and bans"). The Ban record is the
 * spec's table verbatim; `status` values and the list envelope are Muster's decisions (docs/decisions.md "Series, events and bans").
 */
import { type Static, Type } from 'typebox';
import { DateTime, NullableDateTime } from '../../http/schema-helpers.js';

/** Addresses per ban call (a person's addresses, not a bulk import). */
export const MAX_BAN_EMAILS = 50;
export const MAX_EMAIL_LENGTH = 320;
export const MAX_REASON_LENGTH = 2000;
export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 500;

export const BAN_STATUSES = ['Revoked', 'Indefinite', 'Active', 'Expired'] as const;
export type BanStatus = (typeof BAN_STATUSES)[number];

export const Ban = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    emails: Type.Array(Type.String(), {
      description: 'All addresses of one person: trimmed, lowercased, in the order first given',
    }),
    reason: Type.String({ description: 'Free text shown to admins (empty string when none was given)' }),
    status: Type.Union(
      [Type.Literal('Revoked'), Type.Literal('Indefinite'), Type.Literal('Active'), Type.Literal('Expired')],
      {
        description:
          '`Revoked` (revoked_at set), `Indefinite` (not revoked, no expires_at), `Active` (not revoked, expires_at in the future), `Expired` (not revoked, expires_at passed)',
      },
    ),
    active: Type.Boolean({ description: 'Not revoked and not expired: the addresses are currently banned' }),
    expires_at: Type.Union([DateTime, Type.Null()], { description: 'null: indefinite' }),
    revoked_at: NullableDateTime,
    created_at: DateTime,
    created_by: Type.Union(
      [
        Type.Object({
          id: Type.String({ format: 'uuid', description: 'User UUID' }),
          name: Type.String(),
        }),
        Type.Null(),
      ],
      { description: 'The global admin who created the ban; null if that account was deleted' },
    ),
  },
  { description: 'One banned person: every address they use, and the ban lifetime' },
);

export const BanBody = Type.Object({ ban: Ban });

export const BanConflictBody = Type.Object(
  {
    error: Type.String(),
    bans: Type.Array(Ban, { description: 'The existing bans holding one or more of the addresses' }),
  },
  { description: 'Some addresses are already on a ban; nothing was created' },
);

export const BanListBody = Type.Object({
  bans: Type.Array(Ban, { description: 'Newest first' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_more: Type.Boolean({ description: 'More bans exist after this page (request offset + limit)' }),
});

const Email = Type.String({ maxLength: MAX_EMAIL_LENGTH });

export const CreateBanRequest = Type.Object(
  {
    email: Type.Optional(
      Type.String({
        maxLength: MAX_EMAIL_LENGTH,
        description: 'A single address to ban (ignored when `emails` is sent)',
      }),
    ),
    emails: Type.Optional(
      Type.Array(Email, {
        maxItems: MAX_BAN_EMAILS,
        description:
          'Every address of the person; wins over `email` when present. Trimmed, lowercased; duplicates collapse.',
      }),
    ),
    reason: Type.Optional(
      Type.String({ maxLength: MAX_REASON_LENGTH, description: 'Free text for admins (trimmed)' }),
    ),
    expires_at: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'ISO 8601 date-time with a time zone (e.g. 2027-01-01T00:00:00Z), in the future. Omit for an indefinite ban; any other value (including null) is 422, never treated as absent.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateBanInput = Static<typeof CreateBanRequest>;

export const ListBansQuery = Type.Object({
  active: Type.Optional(
    Type.Boolean({ description: '`true`: only bans in force; `false`: only revoked or expired bans' }),
  ),
  email: Type.Optional(
    Type.String({
      maxLength: MAX_EMAIL_LENGTH,
      description:
        'Only the ban holding this address (exact match after trimming and lowercasing; blank = no filter)',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LIST_LIMIT,
      default: DEFAULT_LIST_LIMIT,
      description: `Page size, 1..${MAX_LIST_LIMIT} (default ${DEFAULT_LIST_LIMIT}); out of range → 422`,
    }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2147483647, default: 0, description: 'Bans to skip (default 0)' }),
  ),
});
export type ListBansInput = Static<typeof ListBansQuery>;

export const BanIdParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'Ban UUID; anything else is 404' }),
});
