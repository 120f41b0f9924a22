/** Wire shape of an event's rooming rules (docs/rooming.md "Rules"). */
import { type Static, Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';

const Designation = Type.Union([Type.Literal('female'), Type.Literal('male'), Type.Literal('any')]);
const Weight = (d: string) => Type.Integer({ minimum: 0, maximum: 100, description: d });

const fields = {
  separate_minors_adults: Type.Boolean({
    description: 'Never put minors and adults in one room (default true)',
  }),
  adult_age: Type.Integer({
    minimum: 1,
    maximum: 30,
    description: 'Age from which a person is an adult (default 18)',
  }),
  gender_designation: Type.Boolean({
    description:
      "Place people only in rooms whose designation they may use (default true): `female` and `male` rooms by gender identity, `any` rooms for everyone else, or the lead's per-person choice",
  }),
  designation_choices: Type.Array(
    Type.Object(
      {
        participant_event_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
        designations: Type.Array(Designation, { minItems: 1, maxItems: 3 }),
      },
      { additionalProperties: false },
    ),
    {
      maxItems: 5000,
      description:
        "A safeguarding lead's explicit choice for people who asked for a particular arrangement: the room designations each may be placed in (replaces the one from gender identity)",
    },
  ),
  max_age_gap: Nullable(
    Type.Integer({
      minimum: 0,
      maximum: 100,
      description:
        'At most this many years between the youngest and oldest in a room; null = no limit (default 3)',
    }),
  ),
  mutual_request_weight: Weight('Value of meeting a mutual roommate request (default 10)'),
  one_way_request_weight: Weight('Value of meeting a one-way roommate request (default 2)'),
  room_type_weight: Weight('Value of a room of the type a person prefers (default 1)'),
  match_quiet: Type.Boolean({
    description: 'People who asked for a quiet room only go to quiet rooms (default true)',
  }),
  match_accessibility: Type.Boolean({
    description: 'People with accessibility needs only go to accessible rooms (default true)',
  }),
  stay_within_nights: Type.Boolean({
    description:
      "A person's nights (check-in to the night before check-out) must all be nights the room is available (default true)",
  }),
  skip_rooming_exempt: Type.Boolean({
    description: 'Rooming-exempt people are never placed by the solver (default true)',
  }),
  publish_rooms: Type.Boolean({
    description: 'Participants see their room on their ticket page (default false)',
  }),
};

export const Rules = Type.Object(fields);
export const RulesBody = Type.Object({ rules: Rules });
export const PutRulesRequest = Type.Object(
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof typeof fields]: ReturnType<typeof Type.Optional<(typeof fields)[K]>>;
  },
  { additionalProperties: false },
);
export type PutRulesInput = Static<typeof PutRulesRequest>;
