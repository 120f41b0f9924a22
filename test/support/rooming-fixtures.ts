/**
 * Hand-made rooming solver fixtures for the solver tests: a room (female, plain, no age band,
 * every night) and a person (15, female, no needs, no requests), each with overrides.
 */
import type { SolverPerson, SolverRoom } from '../../src/modules/rooming/solver/types.js';

export const room = (id: number, capacity: number, extra: Partial<SolverRoom> = {}): SolverRoom => ({
  id,
  name: `R${id}`,
  capacity,
  type: capacity === 1 ? 'single' : capacity === 2 ? 'twin' : 'dorm',
  gender_designation: 'female',
  accessible: false,
  quiet: false,
  min_age: null,
  max_age: null,
  nights: null,
  ...extra,
});
export const person = (id: number, extra: Partial<SolverPerson> = {}): SolverPerson => ({
  id,
  name: `P${id}`,
  age: 15,
  designations: ['female'],
  needs_quiet: false,
  needs_accessible: false,
  nights: null,
  room_type: null,
  exempt: false,
  current_room_id: null,
  wants: [],
  excludes: [],
  ...extra,
});
