/**
 * Subject access (docs/privacy.md "Subject access"): everything Muster holds about one person, as a
 * ZIP of
 * - `muster-data.json`: `{generated_at, scope, subject: {person_id, user_id}, tables: {<table>: row[]},
 *   jobs: row[]}`, every row the data map selects, as stored (snake_case columns);
 * - `muster-data.pdf`: the same rows in readable form (one section per table);
 * - `uploads/<file>`: files stored by Muster that the rows point to (a headshot under /media/);
 * - `README.txt`: what the files are.
 * A safeguarding lead's export (`scope: "events_you_lead"`) holds only the person's registrations
 * at events they lead and no account data; a global admin's or the person's own is `whole`.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { lazyModule } from '../../lib/lazy-module.js';
import { DATA_MAP, jobPayloadWhere } from './data-map.js';
import { rowsWhere } from './rows.js';
import type { Subject } from './subject.js';

/** pdfkit and yazl are loaded on the first export, not at start-up. */
const pdfkit = lazyModule<typeof import('pdfkit')>('pdfkit');
const yazl = lazyModule<typeof import('yazl')>('yazl');

export interface SubjectData {
  generated_at: string;
  scope: 'whole' | 'events_you_lead';
  subject: { person_id: number | null; user_id: number | null };
  tables: Record<string, Record<string, unknown>[]>;
  jobs: Record<string, unknown>[];
}

/** Reads every row the data map selects for `s` (one query per table). */
export async function collectSubjectData(db: Tx, s: Subject): Promise<SubjectData> {
  const tables: SubjectData['tables'] = {};
  for (const entry of DATA_MAP) {
    if (entry.scope === 'person' && !s.whole) continue;
    const rows = await rowsWhere(db, entry.table, entry.where(s));
    if (rows.length > 0) tables[entry.table] = [...(tables[entry.table] ?? []), ...rows];
  }
  for (const name of Object.keys(tables)) tables[name] = dedupe(tables[name] as Record<string, unknown>[]);
  const jobs = s.whole
    ? (
        await db.execute<Record<string, unknown>>(
          sql`SELECT id, name, state, data, created_on FROM pgboss.job WHERE ${jobPayloadWhere(s)} ORDER BY created_on`,
        )
      ).rows
    : [];
  return {
    generated_at: new Date().toISOString(),
    scope: s.whole ? 'whole' : 'events_you_lead',
    subject: { person_id: s.personId, user_id: s.userId },
    tables,
    jobs,
  };
}

/** The same row selected by two entries (a table with two keys) appears once. */
export function dedupe<T>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = JSON.stringify(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Stored files the rows point to: `<base>/media/<sha256>.<ext>` URLs in `people.headshot_url`. */
async function uploads(db: Tx, data: SubjectData): Promise<{ name: string; data: Buffer }[]> {
  const files: { name: string; data: Buffer }[] = [];
  for (const person of data.tables.people ?? []) {
    const m = /\/media\/([0-9a-f]{64})\.([a-z]+)$/.exec(String(person.headshot_url ?? ''));
    if (!m) continue;
    const res = await db.execute<{ data: Buffer }>(sql`SELECT data FROM media_files WHERE sha256 = ${m[1]}`);
    const bytes = res.rows[0]?.data;
    if (bytes) files.push({ name: `uploads/headshot.${m[2]}`, data: Buffer.from(bytes) });
  }
  return files;
}

function pdfOf(data: SubjectData): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const PDFDocument = pdfkit();
    const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: 'Your data held by Muster' } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(16).text('Data held by Muster');
    doc.font('Helvetica').fontSize(9).text(`Generated ${data.generated_at} · scope: ${data.scope}`);
    for (const [table, rows] of Object.entries(data.tables)) {
      doc.moveDown().font('Helvetica-Bold').fontSize(12).text(table);
      for (const row of rows) {
        doc.moveDown(0.3).font('Helvetica').fontSize(9);
        for (const [k, v] of Object.entries(row)) {
          if (v === null || v === '') continue;
          doc.text(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
        }
      }
    }
    doc.end();
  });
}

const README = `This archive holds the personal data Muster stores about you.
muster-data.json  every stored row that names you, by table (as stored)
muster-data.pdf   the same, in readable form
uploads/          files stored by Muster that your record points to (if any)
`;

/** The ZIP of `collectSubjectData` (see the module comment), as bytes. */
export async function subjectAccessZip(db: Tx, s: Subject): Promise<{ data: SubjectData; zip: Buffer }> {
  const data = await collectSubjectData(db, s);
  const zip = new (yazl().ZipFile)();
  zip.addBuffer(Buffer.from(README), 'README.txt');
  zip.addBuffer(Buffer.from(JSON.stringify(data, null, 2)), 'muster-data.json');
  zip.addBuffer(await pdfOf(data), 'muster-data.pdf');
  for (const f of await uploads(db, data)) zip.addBuffer(f.data, f.name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return { data, zip: Buffer.concat(chunks) };
}
