/**
 * Reading an import file (docs/decisions.md "Import"): `.json` or `.csv`, validated into ImportItem[].
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CsvError, parse } from 'csv-parse/sync';
import { unprocessable } from '../../lib/errors.js';
import { errorCode, errorMessage, propOf } from '../../lib/narrow.js';
import { importError, validateImportItems } from './import.validate.js';
import type { ImportItem } from './record/item.schema.js';

/**
 * CSV columns (header row required, any order, case-insensitive; every column but `email` optional;
 * a blank cell leaves the stored value unchanged):
 *
 * | column | becomes |
 * |---|---|
 * | email | email (the import key) |
 * | first_name, last_name | personal.legal_first_name, personal.legal_last_name (required for a new person) |
 * | preferred_name, date_of_birth (YYYY-MM-DD), tshirt_size | personal.* |
 * | address_line_1, address_line_2, address_city, address_state, address_postal_code, address_country | personal.address.* |
 * | phone, pronouns, chat_user_id, headshot_url | top-level fields |
 * | status | invited, in_progress, awaiting_guardian, complete, withdrawn or rejected |
 * | diet_type | dietary section |
 * | allergies, medical_conditions, medications | medical section |
 * | engagement_preference, engagement_notes | personal.* |
 * | life_threatening_allergies, allergy_severity, emergency_action_plan, medical_notes | medical (medical_notes = medical_detail.additional_notes) |
 * | intolerances, dietary_notes | dietary_detail.* |
 * | high_support_notes, authorized_pickup_adults | safeguarding_detail.* |
 * | has_anaphylaxis_risk, requires_refrigeration, cross_contamination_risk, high_support_flag, can_leave_unaccompanied, freedom_waiver_granted | flags: true/false, yes/no or 1/0 |
 * | check_in_date, check_out_date (YYYY-MM-DD), gender_identity, room_type_preference, roommate_preferences, accessibility_needs, accommodation_notes | accommodation.* |
 * | guardian_name, guardian_email, guardian_phone, guardian_relationship | the one (primary) guardian; when any is filled, it replaces the guardian list |
 * | emergency_contact_name, emergency_contact_phone, emergency_contact_relationship | the registration's own emergency contact (all three needed); replaces its own contacts |
 */
export const CSV_COLUMNS: Record<string, string> = {
  email: 'email',
  first_name: 'personal.legal_first_name',
  last_name: 'personal.legal_last_name',
  preferred_name: 'personal.preferred_name',
  date_of_birth: 'personal.date_of_birth',
  tshirt_size: 'personal.tshirt_size',
  address_line_1: 'personal.address.line_1',
  address_line_2: 'personal.address.line_2',
  address_city: 'personal.address.city',
  address_state: 'personal.address.state',
  address_postal_code: 'personal.address.postal_code',
  address_country: 'personal.address.country',
  phone: 'phone',
  pronouns: 'pronouns',
  chat_user_id: 'chat_user_id',
  headshot_url: 'headshot_url',
  status: 'status',
  diet_type: 'diet_type',
  allergies: 'allergies',
  medical_conditions: 'medical_conditions',
  medications: 'medications',
  engagement_preference: 'personal.engagement_preference',
  engagement_notes: 'personal.engagement_notes',
  life_threatening_allergies: 'life_threatening_allergies',
  allergy_severity: 'medical_detail.allergy_severity',
  emergency_action_plan: 'medical_detail.emergency_action_plan',
  medical_notes: 'medical_detail.additional_notes',
  intolerances: 'dietary_detail.intolerances',
  dietary_notes: 'dietary_detail.notes',
  high_support_notes: 'safeguarding_detail.high_support_notes',
  authorized_pickup_adults: 'safeguarding_detail.authorized_pickup_adults',
  has_anaphylaxis_risk: 'has_anaphylaxis_risk',
  requires_refrigeration: 'requires_refrigeration',
  cross_contamination_risk: 'cross_contamination_risk',
  high_support_flag: 'high_support_flag',
  can_leave_unaccompanied: 'can_leave_unaccompanied',
  freedom_waiver_granted: 'freedom_waiver_granted',
  check_in_date: 'accommodation.check_in_date',
  check_out_date: 'accommodation.check_out_date',
  gender_identity: 'accommodation.gender_identity',
  room_type_preference: 'accommodation.room_type_preference',
  roommate_preferences: 'accommodation.roommate_preferences',
  accessibility_needs: 'accommodation.accessibility_needs',
  accommodation_notes: 'accommodation.notes',
  guardian_name: 'guardians[0].name',
  guardian_email: 'guardians[0].email',
  guardian_phone: 'guardians[0].phone',
  guardian_relationship: 'guardians[0].relationship',
  emergency_contact_name: 'emergency_contacts[0].name',
  emergency_contact_phone: 'emergency_contacts[0].phone',
  emergency_contact_relationship: 'emergency_contacts[0].relationship',
};
/** Flag columns: `true`/`yes`/`1` and `false`/`no`/`0` (any case); anything else is reported as not a boolean. */
const BOOLEAN_COLUMNS = new Set([
  'has_anaphylaxis_risk',
  'requires_refrigeration',
  'cross_contamination_risk',
  'high_support_flag',
  'can_leave_unaccompanied',
  'freedom_waiver_granted',
]);
function cellValue(column: string, cell: string): unknown {
  if (!BOOLEAN_COLUMNS.has(column)) return cell;
  const v = cell.toLowerCase();
  if (v === 'true' || v === 'yes' || v === '1') return true;
  if (v === 'false' || v === 'no' || v === '0') return false;
  return cell;
}
const COLUMN_OF_FIELD = new Map(Object.entries(CSV_COLUMNS).map(([column, field]) => [field, column]));

/**
 * Reads `filePath` (`.json`: an array of items, or `{participants: [...]}`; `.csv`: see CSV_COLUMNS)
 * and returns validated items. Throws ApiError 422 for an unreadable file, an unsupported extension,
 * malformed JSON/CSV, unknown CSV columns (named), or invalid items (named by index or CSV line).
 */
export async function parseImportFile(filePath: string): Promise<ImportItem[]> {
  const ext = path.extname(filePath).toLowerCase();
  if (ext !== '.json' && ext !== '.csv') {
    throw unprocessable(`Unsupported import file type "${ext || filePath}": use a .json or .csv file`);
  }
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const code = errorCode(error);
    throw unprocessable(
      `Cannot read ${filePath}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'read error')}`,
    );
  }
  return ext === '.json' ? parseJson(text) : parseCsv(text);
}

function parseJson(text: string): ImportItem[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw unprocessable(`The file is not valid JSON: ${errorMessage(error)}`);
  }
  const list = propOf(value, 'participants');
  return validateImportItems(!Array.isArray(value) && Array.isArray(list) ? list : value);
}

/** Parses CSV text into ImportItem[] (exported for tests). */
export function parseCsv(text: string): ImportItem[] {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    // Each record with the source line it ends on (what `info: true` gives, typed).
    const lines: number[] = [];
    const records = parse(text, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: false,
      on_record: (record, context) => {
        lines.push(context.lines);
        return record;
      },
    });
    rows = records.map((record, i) => ({ record, info: { lines: lines[i] ?? 0 } }));
  } catch (error) {
    if (error instanceof CsvError) throw unprocessable(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
  const [header, ...data] = rows;
  if (!header) throw unprocessable('The CSV file is empty');
  const columns = header.record.map((c) => c.toLowerCase());
  const unknown = columns.filter((c) => !(c in CSV_COLUMNS));
  if (unknown.length > 0) {
    throw unprocessable(
      `Unknown CSV column${unknown.length === 1 ? '' : 's'}: ${unknown.map((c) => c || '(blank)').join(', ')}. ` +
        `Known columns: ${Object.keys(CSV_COLUMNS).join(', ')}`,
    );
  }
  const repeated = columns.filter((c, i) => columns.indexOf(c) !== i);
  if (repeated.length > 0) throw unprocessable(`Repeated CSV column: ${[...new Set(repeated)].join(', ')}`);
  if (!columns.includes('email')) throw unprocessable('The CSV file needs an email column');
  if (data.length === 0)
    throw importError([{ field: 'items', message: 'The CSV file has a header but no rows' }]);

  const items = data.map(({ record }) => {
    const item: Record<string, unknown> = {};
    record.forEach((cell, i) => {
      if (cell !== '') setPath(item, CSV_COLUMNS[columns[i]!]!, cellValue(columns[i]!, cell));
    });
    const guardian = (item.guardians as Record<string, unknown>[] | undefined)?.[0];
    if (guardian) guardian.is_primary = true;
    return item;
  });
  return validateImportItems(items, {
    item: (index) => `line ${data[index]!.info.lines}`,
    field: (field) => COLUMN_OF_FIELD.get(field) ?? field,
  });
}

/** Sets `a.b[0].c` on `target`, creating objects and arrays on the way. */
function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '');
  let node: Record<string, unknown> = target;
  parts.forEach((part, i) => {
    if (i === parts.length - 1) {
      node[part] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(parts[i + 1]!);
    node[part] ??= nextIsIndex ? [] : {};
    node = node[part] as Record<string, unknown>;
  });
}
