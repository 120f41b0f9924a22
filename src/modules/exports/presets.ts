/**
 * Export presets (docs/exports.md "Presets"): the spreadsheet presets (CSV and XLSX) and the
 * printouts (PDF), their columns, order, default statuses and who may download them. A preset
 * whose `requires` class the caller cannot see is refused with 403.
 */
import type { Visibility } from '../../access/policy.js';
import {
  ANAPHYLAXIS,
  b,
  CONTACT_COLUMNS,
  type Column,
  type ColumnClass,
  DATE_OF_BIRTH,
  DIETARY,
  GROUPS,
  MEDICAL,
  MINOR,
  NAME,
  PHONE,
  ROSTER,
  STATUS,
  s,
} from './columns.js';

/** Shared with the staff table and announcement audiences: the same minor and check-in rules. */
export { CHECKED_IN, FIRST_CHECK_IN, IS_MINOR } from './columns.js';

import { keysOf } from '../../lib/narrow.js';
import { AGE_COLUMN, PERSONAL, ROOMING, SAFEGUARDING, TRAVEL } from './record-columns.js';

export type ExportFormat = 'csv' | 'xlsx' | 'pdf';

export interface Preset {
  label: string;
  formats: readonly ExportFormat[];
  /** One row per registration, one per travel leg (`travel`), or counts only (`catering`). */
  rows: 'registration' | 'leg' | 'summary';
  /** The class a caller must see for the preset to be allowed at all. */
  requires: ColumnClass;
  /** `name`: last name, first name, id; `id`: registration id (machine order). */
  order: 'name' | 'id';
  /** Statuses when the request names none (`status=all` widens to every status). */
  defaultStatus?: readonly string[];
  columns: Column[];
}

const SHEET = ['csv', 'xlsx'] as const;
const PDF = ['pdf'] as const;
const COMPLETE = ['complete'] as const;
const GROUP_NAMES = b('groups', 'Groups', GROUPS);

const TABLE = {
  roster: {
    label: 'Roster',
    formats: SHEET,
    rows: 'registration',
    requires: 'basic',
    order: 'id',
    columns: ROSTER,
  },
  medical: {
    label: 'Medical',
    formats: SHEET,
    rows: 'registration',
    requires: 'sensitive',
    order: 'name',
    defaultStatus: COMPLETE,
    columns: [...NAME, STATUS, DATE_OF_BIRTH, MINOR, ...MEDICAL, ...CONTACT_COLUMNS],
  },
  dietary: {
    label: 'Dietary',
    formats: SHEET,
    rows: 'registration',
    requires: 'sensitive',
    order: 'name',
    defaultStatus: COMPLETE,
    columns: [
      ...NAME,
      STATUS,
      ...DIETARY,
      ANAPHYLAXIS,
      s('allergies', 'Allergies', 'med.allergies', 'text', 40),
      s(
        'life_threatening_allergies',
        'Life-threatening allergies',
        'med.life_threatening_allergies',
        'text',
        40,
      ),
    ],
  },
  catering: {
    label: 'Catering summary',
    formats: SHEET,
    rows: 'summary',
    requires: 'basic',
    order: 'id',
    defaultStatus: COMPLETE,
    columns: [],
  },
  rooming: {
    label: 'Rooming',
    formats: SHEET,
    rows: 'registration',
    requires: 'basic',
    order: 'id',
    columns: [...NAME, STATUS, AGE_COLUMN, ...ROOMING],
  },
  travel: { label: 'Travel', formats: SHEET, rows: 'leg', requires: 'basic', order: 'id', columns: TRAVEL },
  emergency_contacts: {
    label: 'Emergency contacts',
    formats: SHEET,
    rows: 'registration',
    requires: 'sensitive',
    order: 'name',
    defaultStatus: COMPLETE,
    columns: [...NAME, STATUS, MINOR, PHONE, ...CONTACT_COLUMNS],
  },
  full: {
    label: 'Everything',
    formats: SHEET,
    rows: 'registration',
    requires: 'basic',
    order: 'id',
    columns: [
      ...ROSTER,
      ...PERSONAL,
      GROUP_NAMES,
      ...ROOMING,
      ...DIETARY,
      ...MEDICAL,
      ...SAFEGUARDING,
      ...CONTACT_COLUMNS,
      b(
        'waiver_signed',
        'Waiver signed',
        `EXISTS (SELECT 1 FROM consents c WHERE c.registration_id = r.id AND c.consent_type = 'waiver' AND c.status = 'signed')`,
        'bool',
      ),
      s('freedom_waiver_granted', 'Freedom waiver granted', 'r.freedom_waiver_granted', 'bool'),
    ],
  },
  badges: {
    label: 'Name badges',
    formats: PDF,
    rows: 'registration',
    requires: 'basic',
    order: 'name',
    defaultStatus: COMPLETE,
    columns: [],
  },
  door_list: {
    label: 'Door list',
    formats: PDF,
    rows: 'registration',
    requires: 'basic',
    order: 'name',
    defaultStatus: COMPLETE,
    columns: [],
  },
  medical_cards: {
    label: 'Medical cards',
    formats: PDF,
    rows: 'registration',
    requires: 'sensitive',
    order: 'name',
    defaultStatus: COMPLETE,
    columns: [],
  },
  emergency_sheet: {
    label: 'Emergency contact sheet',
    formats: PDF,
    rows: 'registration',
    requires: 'sensitive',
    order: 'name',
    defaultStatus: COMPLETE,
    columns: [],
  },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof TABLE;
export const PRESETS: Record<PresetName, Preset> = TABLE;
export const PRESET_NAMES: PresetName[] = keysOf(PRESETS);

export function canSee(cls: ColumnClass, v: Visibility): boolean {
  return cls === 'basic' || (cls === 'pii' ? v.pii : v.sensitive);
}

/** Whether this caller may download the preset at all. */
export function mayDownload(name: PresetName, v: Visibility): boolean {
  return canSee(PRESETS[name].requires, v);
}

/** The columns of `list` this caller may see. */
export function visible(list: readonly Column[], v: Visibility): Column[] {
  return list.filter((c) => canSee(c.cls, v));
}

/** The preset's columns this caller may see, or null when the preset is closed to them. */
export function visibleColumns(name: PresetName, v: Visibility): Column[] | null {
  if (!mayDownload(name, v)) return null;
  return visible(PRESETS[name].columns, v);
}
