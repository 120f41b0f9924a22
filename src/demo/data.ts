/** Fixed vocabularies for the demo data (plausible values; nothing here is real personal data). */

export interface Airport {
  code: string;
  city: string;
  country: string;
  /** Connection airport for a two-leg trip, or null when flights are direct. */
  via: string | null;
  carriers: readonly { name: string; code: string }[];
}

export const ARRIVAL_AIRPORTS = [
  { code: 'LHR', city: 'London' },
  { code: 'LGW', city: 'London' },
] as const;

export const ORIGIN_AIRPORTS: readonly Airport[] = [
  {
    code: 'DUB',
    city: 'Dublin',
    country: 'Irish',
    via: null,
    carriers: [{ name: 'Aer Lingus', code: 'EI' }],
  },
  {
    code: 'EDI',
    city: 'Edinburgh',
    country: 'British',
    via: null,
    carriers: [{ name: 'British Airways', code: 'BA' }],
  },
  {
    code: 'CDG',
    city: 'Paris',
    country: 'French',
    via: null,
    carriers: [{ name: 'Air France', code: 'AF' }],
  },
  { code: 'AMS', city: 'Amsterdam', country: 'Dutch', via: null, carriers: [{ name: 'KLM', code: 'KL' }] },
  {
    code: 'FRA',
    city: 'Frankfurt',
    country: 'German',
    via: null,
    carriers: [{ name: 'Lufthansa', code: 'LH' }],
  },
  { code: 'MAD', city: 'Madrid', country: 'Spanish', via: null, carriers: [{ name: 'Iberia', code: 'IB' }] },
  { code: 'CPH', city: 'Copenhagen', country: 'Danish', via: 'AMS', carriers: [{ name: 'KLM', code: 'KL' }] },
  {
    code: 'WAW',
    city: 'Warsaw',
    country: 'Polish',
    via: 'FRA',
    carriers: [{ name: 'Lufthansa', code: 'LH' }],
  },
  {
    code: 'LIS',
    city: 'Lisbon',
    country: 'Portuguese',
    via: 'MAD',
    carriers: [{ name: 'Iberia', code: 'IB' }],
  },
  {
    code: 'JFK',
    city: 'New York',
    country: 'American',
    via: 'DUB',
    carriers: [{ name: 'Aer Lingus', code: 'EI' }],
  },
  { code: 'YYZ', city: 'Toronto', country: 'Canadian', via: 'AMS', carriers: [{ name: 'KLM', code: 'KL' }] },
  {
    code: 'BOM',
    city: 'Mumbai',
    country: 'Indian',
    via: 'FRA',
    carriers: [{ name: 'Lufthansa', code: 'LH' }],
  },
];

export const TRAIN_ROUTES = [
  {
    from: 'Manchester Piccadilly',
    city: 'Manchester',
    to: 'London Euston',
    carrier: 'Avanti West Coast',
    hours: 2.2,
  },
  {
    from: 'Birmingham New Street',
    city: 'Birmingham',
    to: 'London Euston',
    carrier: 'Avanti West Coast',
    hours: 1.4,
  },
  { from: 'Edinburgh Waverley', city: 'Edinburgh', to: "London King's Cross", carrier: 'LNER', hours: 4.5 },
  { from: 'York', city: 'York', to: "London King's Cross", carrier: 'LNER', hours: 2 },
  { from: 'Bristol Temple Meads', city: 'Bristol', to: 'London Paddington', carrier: 'GWR', hours: 1.7 },
  {
    from: 'Paris Gare du Nord',
    city: 'Paris',
    to: 'London St Pancras International',
    carrier: 'Eurostar',
    hours: 2.3,
  },
  {
    from: 'Brussels-Midi',
    city: 'Brussels',
    to: 'London St Pancras International',
    carrier: 'Eurostar',
    hours: 2,
  },
] as const;

export const BUS_ROUTES = [
  { from: 'Bristol Bus Station', city: 'Bristol', carrier: 'National Express', hours: 2.5 },
  { from: 'Oxford Gloucester Green', city: 'Oxford', carrier: 'Oxford Tube', hours: 1.7 },
  { from: 'Cambridge Parkside', city: 'Cambridge', carrier: 'National Express', hours: 2.2 },
  { from: 'Leeds City Bus Station', city: 'Leeds', carrier: 'Megabus', hours: 4.5 },
] as const;
export const BUS_ARRIVAL = 'London Victoria Coach Station';

export const ALLERGIES = [
  'peanuts',
  'tree nuts',
  'shellfish',
  'penicillin',
  'latex',
  'pollen',
  'dairy',
  'eggs',
];
export const SEVERE_ALLERGIES = new Set(['peanuts', 'tree nuts', 'shellfish']);
export const CONDITIONS = [
  { condition: 'Asthma', medication: 'Salbutamol inhaler as needed', fridge: false },
  { condition: 'Type 1 diabetes', medication: 'Insulin (NovoRapid) with meals', fridge: true },
  { condition: 'Migraines', medication: 'Sumatriptan 50mg as needed', fridge: false },
  { condition: 'ADHD', medication: 'Methylphenidate 18mg each morning', fridge: false },
  { condition: 'Eczema', medication: 'Hydrocortisone cream 1%', fridge: false },
];
export const DIETS = [
  { weight: 45, value: 'omnivore' },
  { weight: 20, value: 'vegetarian' },
  { weight: 10, value: 'vegan' },
  { weight: 8, value: 'halal' },
  { weight: 3, value: 'kosher' },
  { weight: 7, value: 'gluten_free' },
  { weight: 7, value: 'pescatarian' },
];
export const INTOLERANCES = ['lactose', 'gluten', 'fructose', 'histamine'];
export const TSHIRT_SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
export const ENGAGEMENT = ['Workshops', 'Talks', 'Outdoor activities', 'Social events', 'Volunteering'];
export const RELATIONSHIPS = ['Mother', 'Father', 'Guardian', 'Grandparent', 'Step-parent'];
export const CONTACT_RELATIONSHIPS = ['Partner', 'Sibling', 'Friend', 'Aunt', 'Uncle', 'Parent', 'Neighbour'];
export const COUNTRIES = ['United Kingdom', 'Ireland', 'France', 'Netherlands', 'Germany', 'Spain'];
export const ROOM_TYPES = ['Shared (2 beds)', 'Shared (4 beds)', 'Single'];
export const GENDERS = [
  { weight: 46, value: 'Woman' },
  { weight: 46, value: 'Man' },
  { weight: 6, value: 'Non-binary' },
  { weight: 2, value: 'Prefer to self-describe' },
];
