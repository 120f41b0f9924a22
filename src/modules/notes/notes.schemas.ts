/** Wire shapes of staff notes (docs/decisions.md "Notes"). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable } from '../../http/schema-helpers.js';

export const MAX_NOTE_LENGTH = 10_000;

export const CreateNoteRequest = Type.Object(
  {
    content: Type.String({
      maxLength: MAX_NOTE_LENGTH,
      description: `Trimmed; 1..${MAX_NOTE_LENGTH} characters`,
    }),
    note_type: Type.Optional(
      Type.Union([Type.Literal('ops'), Type.Literal('safeguarding'), Type.Literal('logistical')], {
        description: 'Default `ops`',
      }),
    ),
    sensitivity: Type.Optional(
      Type.Union([Type.Literal('normal'), Type.Literal('restricted')], {
        description:
          'Default `normal`; `restricted` notes are read only by global admins and safeguarding leads',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateNoteInput = Static<typeof CreateNoteRequest>;

export const Note = Type.Object({
  id: Type.Integer(),
  content: Type.String(),
  note_type: Type.String({ description: 'ops | safeguarding | logistical' }),
  sensitivity: Type.String({ description: 'normal | restricted' }),
  created_at: DateTime,
  author: Nullable(
    Type.Object(
      { id: Type.Integer({ description: 'User id' }), name: Type.String(), email: Type.String() },
      { description: 'null when the author’s account was deleted' },
    ),
  ),
});
export type NoteJson = Static<typeof Note>;

export const NoteBody = Type.Object({ note: Note });
export const NoteList = Type.Object({ notes: Type.Array(Note) });
