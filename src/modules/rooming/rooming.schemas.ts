/** Wire shapes of the rooming plan and apply (docs/rooming.md "Solver", "Apply"). */
import { type Static, Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const PlanRequest = Type.Object(
  {
    keep_existing: Type.Optional(
      Type.Boolean({
        description:
          'Keep people in the rooms they are in now (default true); false re-plans everyone but rooming-exempt people',
      }),
    ),
  },
  { additionalProperties: false },
);

const Assignment = Type.Object({ participant_event_id: Type.Integer(), room_id: Type.Integer() });

export const PlanResponse = Type.Object({
  assignments: Type.Array(Assignment, {
    description: 'Everyone with a room in the plan (kept people included)',
  }),
  unassigned: Type.Array(
    Type.Object({
      participant_event_id: Type.Integer(),
      reason: Type.String({ description: 'Why, in words' }),
    }),
  ),
  requests: Type.Object({
    met: Type.Integer({ description: 'Roommate requests met (each person’s request counts once)' }),
    total: Type.Integer(),
    mutual: Type.Object({
      met: Type.Integer({ description: 'Mutual pairs in one room' }),
      total: Type.Integer(),
      satisfiable: Type.Integer({ description: 'Mutual pairs some room could hold under the hard rules' }),
    }),
    unmet: Type.Array(
      Type.Object({
        participant_event_id: Type.Integer(),
        roommate_participant_event_id: Nullable(
          Type.Integer({ description: 'null: the request names nobody (or several people) of the event' }),
        ),
        mutual: Type.Boolean(),
        reason: Type.String({ description: 'Why, in words' }),
      }),
    ),
  }),
});

export const ApplyRequest = Type.Object(
  {
    assignments: Type.Array(
      Type.Object(
        {
          participant_event_id: Id,
          room_id: Nullable(Id),
          override_reason: Type.Optional(
            Type.String({
              maxLength: 2000,
              description: 'Why a move that breaks a rule is kept (required for such a move)',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10_000 },
    ),
  },
  { additionalProperties: false },
);
export type ApplyInput = Static<typeof ApplyRequest>;

export const ApplyResponse = Type.Object({
  changed: Type.Integer({ description: 'People whose room changed (one history entry each)' }),
  unchanged: Type.Integer(),
  overridden: Type.Integer({ description: 'Changes kept despite a broken rule, with their reason' }),
});

export const ApplyProblem = Type.Object(
  {
    error: Type.String(),
    problems: Type.Optional(
      Type.Array(
        Type.Object({
          participant_event_id: Type.Integer(),
          room_id: Type.Integer(),
          rules: Type.Array(Type.String()),
        }),
      ),
    ),
  },
  { description: 'Error envelope; `problems` lists each move that breaks a rule' },
);
