/** Wire shapes of chat blasts (spec "Chat blast", docs/decisions.md "Messaging"). */
import { type Static, Type } from 'typebox';
import { DateTime } from '../../http/schema-helpers.js';

export const MAX_MESSAGE_LENGTH = 4000;

export const CreateChatBlastRequest = Type.Object(
  {
    message: Type.String({
      maxLength: 100_000,
      description: `Trimmed; 1..${MAX_MESSAGE_LENGTH} characters`,
    }),
  },
  { additionalProperties: false },
);
export type CreateChatBlastInput = Static<typeof CreateChatBlastRequest>;

export const ChatBlast = Type.Object({
  id: Type.Integer(),
  message: Type.String(),
  status: Type.String({ description: 'pending | in_progress | completed | failed' }),
  recipient_count: Type.Integer({ description: 'Recipients snapshotted at creation' }),
  sent_count: Type.Integer({ description: 'Recipients whose message was posted' }),
  failed_count: Type.Integer({ description: 'Recipients that failed permanently or ran out of attempts' }),
  created_at: DateTime,
  sent_by: Type.String({ description: 'Name of the user who sent the blast' }),
});
export type ChatBlastJson = Static<typeof ChatBlast>;

export const ChatBlastBody = Type.Object({ chat_blast: ChatBlast });
export const ChatBlastList = Type.Object({ chat_blasts: Type.Array(ChatBlast) });
export const ChatBlastListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type ChatBlastListInput = Static<typeof ChatBlastListQuery>;
