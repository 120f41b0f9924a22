/**
 * A small rooming scene in an event (docs/rooming.md "Pages" tests): three twin rooms (Oak for
 * girls 12–17, Elm for boys 12–17, Birch for girls 12–17 and quiet) and four teenagers on
 * 2026-07-10: Fern and Gail asked for each other, Hugo and Ivan too. A plan puts Fern and Gail in
 * one girls' room and Hugo and Ivan in Elm; moving Hugo into Oak breaks the designation rule.
 */
import { sql } from 'drizzle-orm';
import { accommodations } from '../../src/db/schema/index.js';
import type { Deps } from '../../src/deps.js';
import { addRegistration } from './world.js';

export interface RoomingScene {
  rooms: { oak: number; elm: number; birch: number };
  people: { fern: number; gail: number; hugo: number; ivan: number };
}

const PEOPLE = [
  ['fern', 'Fern', 'Field', '2011-01-01', 'girl', 'Gail Green'],
  ['gail', 'Gail', 'Green', '2011-06-01', 'girl', 'Fern Field'],
  ['hugo', 'Hugo', 'Hill', '2011-03-01', 'boy', 'Ivan Irons'],
  ['ivan', 'Ivan', 'Irons', '2010-09-01', 'boy', 'Hugo Hill'],
] as const;

export async function seedRoomingScene(deps: Pick<Deps, 'db'>, eventId: number): Promise<RoomingScene> {
  return deps.db.transaction(async (tx) => {
    const room = async (name: string, designation: string, quiet: boolean) => {
      const res = await tx.execute<{ id: number }>(
        sql`INSERT INTO rooms (event_id, name, capacity, type, gender_designation, quiet, min_age, max_age)
            VALUES (${eventId}, ${name}, 2, 'twin', ${designation}, ${quiet}, 12, 17) RETURNING id`,
      );
      return Number(res.rows[0]!.id);
    };
    const rooms = {
      oak: await room('Oak', 'female', false),
      elm: await room('Elm', 'male', false),
      birch: await room('Birch', 'female', true),
    };
    const people = {} as RoomingScene['people'];
    for (const [key, first, last, dob, gender, wants] of PEOPLE) {
      const reg = await addRegistration(tx, {
        eventId,
        email: `${first.toLowerCase()}.${last.toLowerCase()}@example.org`,
        firstName: first,
        lastName: last,
        preferredName: null,
        dateOfBirth: dob,
        status: 'complete',
      });
      await tx.insert(accommodations).values({
        registrationId: reg.id,
        checkInDate: '2026-07-09',
        checkOutDate: '2026-07-14',
        genderIdentity: gender,
        roommatePreferences: wants,
        quietRoomPreference: 'no',
      });
      people[key] = reg.id;
    }
    return { rooms, people };
  });
}
