import { planRooms } from '../src/modules/rooming/solver/plan.js';
import { DEFAULT_RULES } from '../src/modules/rooming/solver/types.js';
import { generateRooming } from '../test/support/rooming-gen.js';
const cases = (process.argv[2] ?? "").split(",").filter(Boolean).map((c) => c.split(":").map(Number));
for (const [n, r] of cases) {
  const { rooms, people } = generateRooming(1, n!, r!);
  const t0 = performance.now();
  const plan = await planRooms(rooms, people, DEFAULT_RULES);
  const s = (performance.now() - t0) / 1000;
  const m = plan.requests.mutual;
  const reasons = new Map<string, number>();
  for (const u of plan.requests.unmet) if (u.mutual) { const k = u.reason.replace(/P\d+/g, 'P'); reasons.set(k, (reasons.get(k) ?? 0) + 1); }
  console.log(`${n}/${r}: ${s.toFixed(1)} s placed ${plan.assignments.length} mutual ${m.met}/${m.satisfiable} (${m.total}) = ${(100*m.met/m.satisfiable).toFixed(1)}%`);
  console.log([...reasons.entries()]);
}
{
  const { rooms, people } = generateRooming(1, 2000, 600);
  const plan = await planRooms(rooms, people, DEFAULT_RULES);
  const roomOf = new Map(plan.assignments.map((a) => [a.participant_event_id, a.room_id]));
  const byId = new Map(people.map((p) => [p.id, p]));
  const cls = new Map<string, { people: number; placed: number; beds: number }>();
  for (const u of plan.requests.unmet) {
    if (!u.mutual || u.participant_event_id > u.roommate_participant_event_id) continue;
    const p = byId.get(u.participant_event_id)!; const q = byId.get(u.roommate_participant_event_id)!;
    console.log(p.age, q.age, p.designations, p.needs_quiet, q.needs_quiet, p.needs_accessible, q.needs_accessible, roomOf.get(p.id), roomOf.get(q.id), u.reason.slice(0, 40));
  }
  // beds vs people per class (minor/adult x designation)
  for (const p of people) { const k = `${p.age! >= 18 ? 'A' : 'M'} ${p.designations[0]}${p.needs_quiet ? ' q' : ''}`; const c = cls.get(k) ?? { people: 0, placed: 0, beds: 0 }; c.people++; if (roomOf.has(p.id)) c.placed++; cls.set(k, c); }
  for (const r of rooms) { const k = `${r.min_age ? 'A' : 'M'} ${r.gender_designation}`; const c = cls.get(k) ?? { people: 0, placed: 0, beds: 0 }; c.beds += r.capacity; cls.set(k, c); }
  console.log(cls);
}
