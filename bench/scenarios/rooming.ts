/**
 * `rooming`: the rooming solver (src/modules/rooming/solver) on generated instances
 * (test/support/rooming-gen.ts `generateRooming`, seed 1), 500 people into 150 rooms and 2,000 into 600, with the default
 * rules: time to a plan, people placed, and the share of satisfiable mutual requests met. Goals
 * (docs/rooming.md "Solver"): ≤ 10 s and ≤ 60 s on this machine, ≥ 95 % of satisfiable mutual
 * requests met. It needs no database, so it runs once per bench run (on the first database), in the
 * bench process itself. The greedy baseline (solver/greedy.ts: the same blocks and repair pass,
 * first-fit placing instead of the MIP) runs beside it for comparison; the goals are the MIP's:
 *   npm run bench -- --only=pg --sizes=20 --scenarios=rooming
 */
import { greedyPlace } from '../../src/modules/rooming/solver/greedy.js';
import { type PlanOptions, planRooms } from '../../src/modules/rooming/solver/plan.js';
import { DEFAULT_RULES } from '../../src/modules/rooming/solver/types.js';
import { generateRooming } from '../../test/support/rooming-gen.js';
import type { GoalLine, Scenario } from './types.js';

const CASES = [
  { people: 500, rooms: 150, goalSeconds: 10 },
  { people: 2_000, rooms: 600, goalSeconds: 60 },
] as const;
const GOAL_SHARE = 0.95;

/** The MIP (the service's strategy, with the goals) and the greedy baseline it is compared with. */
const STRATEGIES: { name: Strategy; options: PlanOptions }[] = [
  { name: 'MIP', options: {} },
  { name: 'greedy', options: { place: greedyPlace } },
  { name: 'MIP without repair', options: { repair: false } },
  { name: 'greedy without repair', options: { place: greedyPlace, repair: false } },
];
type Strategy = 'MIP' | 'greedy' | 'MIP without repair' | 'greedy without repair';

interface RoomingRun {
  strategy: Strategy;
  /** Every request, one-way ones included: met and asked. */
  requests: { met: number; total: number };
  people: number;
  rooms: number;
  seconds: number;
  placed: number;
  mutual: { met: number; total: number; satisfiable: number };
  goalSeconds: number;
}

let ran = false;

const line = (r: RoomingRun) =>
  `${r.strategy.padEnd(21)} ${r.people} people / ${r.rooms} rooms: ${r.seconds.toFixed(1)} s, placed ${r.placed}, ` +
  `mutual requests met ${r.mutual.met} of ${r.mutual.satisfiable} satisfiable (${r.mutual.total} pairs), ` +
  `all requests met ${r.requests?.met ?? '-'} of ${r.requests?.total ?? '-'}`;

const share = (r: RoomingRun) => (r.mutual.satisfiable === 0 ? 1 : r.mutual.met / r.mutual.satisfiable);

export const rooming: Scenario = {
  name: 'rooming',
  sizes: (all) => all.slice(0, 1),
  async run(ctx) {
    if (ran) return;
    ran = true;
    const runs: RoomingRun[] = [];
    for (const c of CASES)
      for (const { name, options } of STRATEGIES) {
        const { rooms, people } = generateRooming(1, c.people, c.rooms);
        const t0 = performance.now();
        const plan = await planRooms(rooms, people, DEFAULT_RULES, options);
        const run: RoomingRun = {
          strategy: name,
          people: c.people,
          rooms: c.rooms,
          seconds: (performance.now() - t0) / 1000,
          placed: plan.assignments.length,
          mutual: plan.requests.mutual,
          requests: { met: plan.requests.met, total: plan.requests.total },
          goalSeconds: c.goalSeconds,
        };
        runs.push(run);
        ctx.log(`  rooming: ${line(run)}`);
      }
    ctx.attach('rooming', { runs });
  },

  summary(details) {
    const runs = Object.values(details.rooming ?? {}).flatMap((d) => (d as { runs: RoomingRun[] }).runs);
    return runs.length
      ? ['rooming solver (generated instances, default rules):', ...runs.map((r) => `  ${line(r)}`)]
      : [];
  },

  goals(_rows, details) {
    return Object.entries(details.rooming ?? {}).flatMap(([db, d]): GoalLine[] =>
      (d as { runs: RoomingRun[] }).runs
        .filter((r) => r.strategy === 'MIP')
        .map((r) => ({
          what: `rooming: ${r.people} people into ${r.rooms} rooms`,
          db: db as 'pg' | 'pglite',
          measured: `${r.seconds.toFixed(1)} s, ${(share(r) * 100).toFixed(1)} % of satisfiable mutual requests met`,
          goal: `≤ ${r.goalSeconds} s, ≥ ${GOAL_SHARE * 100} %`,
          met: r.seconds <= r.goalSeconds && share(r) >= GOAL_SHARE,
        })),
    );
  },
};
