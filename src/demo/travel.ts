/** Demo travel: inbound and outbound trips by plane (1–2 legs with IATA codes), train, car or bus. */
import type { Faker } from '@faker-js/faker';
import type { ImportTravel } from '../modules/participants/record/item.schema.js';
import { ARRIVAL_AIRPORTS, BUS_ARRIVAL, BUS_ROUTES, ORIGIN_AIRPORTS, TRAIN_ROUTES } from './data.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

export interface TravelPerson {
  minor: boolean;
  age: number;
  homeAddress: string;
  homeCity: string;
  /** Event start and end (ms since epoch). */
  startsAt: number;
  endsAt: number;
}

type Mode = 'plane' | 'train' | 'car' | 'bus';

/** Inbound arrives the day before the event; outbound leaves after it ends. Mostly the same mode both ways. */
export function demoTravel(f: Faker, p: TravelPerson): { inbound: ImportTravel; outbound: ImportTravel } {
  const mode = f.helpers.weightedArrayElement<Mode>([
    { weight: 40, value: 'plane' },
    { weight: 30, value: 'train' },
    { weight: 15, value: 'car' },
    { weight: 15, value: 'bus' },
  ]);
  const back = f.datatype.boolean({ probability: 0.9 })
    ? mode
    : f.helpers.arrayElement<Mode>(['train', 'car', 'bus']);
  const arrive = p.startsAt - 24 * HOUR + f.number.int({ min: 1, max: 9 }) * HOUR;
  const leave = p.endsAt + f.number.int({ min: 1, max: 6 }) * HOUR;
  return { inbound: trip(f, p, mode, 'inbound', arrive), outbound: trip(f, p, back, 'outbound', leave) };
}

/** One trip; `anchor` is the arrival time (inbound) or the departure time (outbound). */
function trip(
  f: Faker,
  p: TravelPerson,
  mode: Mode,
  direction: 'inbound' | 'outbound',
  anchor: number,
): ImportTravel {
  const inbound = direction === 'inbound';
  const base: ImportTravel = {
    mode,
    is_unaccompanied_minor:
      p.minor && p.age < 16 && mode !== 'car' && f.datatype.boolean({ probability: 0.5 }),
    notes: f.datatype.boolean({ probability: 0.15 }) ? 'Please text on arrival.' : null,
  };
  if (mode === 'plane') return { ...base, ...flight(f, inbound, anchor) };
  if (mode === 'train') {
    const r = f.helpers.arrayElement(TRAIN_ROUTES);
    const [dep, arr] = inbound ? [anchor - r.hours * HOUR, anchor] : [anchor, anchor + r.hours * HOUR];
    return {
      ...base,
      carrier: r.carrier,
      train_departure_station: inbound ? r.from : r.to,
      train_arrival_station: inbound ? r.to : r.from,
      departure_city: inbound ? r.city : 'London',
      arrival_city: inbound ? 'London' : r.city,
      departure_time: iso(dep),
      arrival_time: iso(arr),
      expected_arrival_time: iso(arr),
    };
  }
  if (mode === 'bus') {
    const r = f.helpers.arrayElement(BUS_ROUTES);
    const [dep, arr] = inbound ? [anchor - r.hours * HOUR, anchor] : [anchor, anchor + r.hours * HOUR];
    return {
      ...base,
      carrier: r.carrier,
      bus_departure_location: inbound ? r.from : BUS_ARRIVAL,
      bus_arrival_location: inbound ? BUS_ARRIVAL : r.from,
      departure_city: inbound ? r.city : 'London',
      arrival_city: inbound ? 'London' : r.city,
      departure_time: iso(dep),
      arrival_time: iso(arr),
      expected_arrival_time: iso(arr),
    };
  }
  const hours = f.number.int({ min: 1, max: 5 });
  const [dep, arr] = inbound ? [anchor - hours * HOUR, anchor] : [anchor, anchor + hours * HOUR];
  return {
    ...base,
    origin_address: p.homeAddress,
    departure_city: inbound ? p.homeCity : 'London',
    arrival_city: inbound ? 'London' : p.homeCity,
    departure_time: iso(dep),
    arrival_time: iso(arr),
    expected_arrival_time: iso(arr),
    other_details: p.minor ? 'Dropped off and collected by a parent' : 'Driving; needs a parking space',
  };
}

function flight(f: Faker, inbound: boolean, anchor: number): Partial<ImportTravel> {
  const origin = f.helpers.arrayElement(ORIGIN_AIRPORTS);
  const london = f.helpers.arrayElement(ARRIVAL_AIRPORTS);
  const carrier = f.helpers.arrayElement(origin.carriers);
  const stops = inbound
    ? [origin.code, ...(origin.via ? [origin.via] : []), london.code]
    : [london.code, ...(origin.via ? [origin.via] : []), origin.code];
  const legCount = stops.length - 1;
  const durations = Array.from({ length: legCount }, () => f.number.int({ min: 70, max: 150 }) * 60_000);
  const layover = 95 * 60_000;
  const total = durations.reduce((a, b) => a + b, 0) + layover * (legCount - 1);
  let t = inbound ? anchor - total : anchor;
  const legs = durations.map((d, i) => {
    const leg = {
      flight_code: `${carrier.code}${f.number.int({ min: 100, max: 1999 })}`,
      departure_airport: stops[i]!,
      arrival_airport: stops[i + 1]!,
      departure_time: iso(t),
      arrival_time: iso(t + d),
    };
    t += d + layover;
    return leg;
  });
  const visa = origin.code === 'BOM';
  return {
    carrier: carrier.name,
    flight_number: legs[0]!.flight_code,
    departure_city: inbound ? origin.city : london.city,
    arrival_city: inbound ? london.city : origin.city,
    departure_station: stops[0]!,
    arrival_station: stops[stops.length - 1]!,
    departure_time: legs[0]!.departure_time,
    arrival_time: legs[legCount - 1]!.arrival_time,
    expected_arrival_time: legs[legCount - 1]!.arrival_time,
    visa_required: visa,
    visa_status: visa ? f.helpers.arrayElement(['approved', 'applied']) : null,
    visa_type: visa ? 'Standard Visitor' : null,
    visa_number: visa ? `GBR${f.string.numeric(9)}` : null,
    passport_nationality: origin.country,
    legs,
  };
}
