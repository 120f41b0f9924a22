/**
 * The printouts (docs/exports.md "Printouts"): `badges`, `door_list`, `medical_cards` and
 * `emergency_sheet` as PDFs, streamed page by page with pdfkit while registrations are read in
 * batches, so 20,000 badges print in flat memory. Each reads only the columns the caller may see.
 */
import { sql } from 'drizzle-orm';
import type { EventCtx } from '../../../deps.js';
import { exportedBy, filterLines, STATUS_WORDS, wallClock, wallText } from '../about.js';
import { b, type Column } from '../columns.js';
import { exportRows } from '../exports.repo.js';
import type { ExportPlan, ExportRun } from '../exports.service.js';
import { PRESETS, visible } from '../presets.js';
import { BADGE_LAYOUTS, type BadgeLayout, BadgeSheet } from './badges.js';
import { BADGE_COLUMNS, DOOR_COLUMNS, EMERGENCY_COLUMNS, MEDICAL_CARD_COLUMNS } from './columns.js';
import { doorAlerts } from './door-words.js';
import { MedicalCards } from './medical-cards.js';
import { pdfOut } from './pdf.js';
import { PrintedTable, type Rec } from './table.js';

const yes = (v: string | null | undefined) => (v === 'true' ? 'Yes' : '');
const fullName = (r: Rec) => `${r.last ?? ''}, ${r.first ?? ''}${r.preferred ? ` (${r.preferred})` : ''}`;
/** `/media/<sha256>.<ext>`: a photo stored in Muster (printing never fetches other addresses). */
const MEDIA = /^\/media\/([0-9a-f]{64})\.(png|jpe?g)$/;

/**
 * A printout's drawing: `prepare` reads what a batch needs besides its rows (badge photos), `draw`
 * draws one record; the run waits for the client after each record (pdf.ts `flushed`).
 */
interface Renderer {
  columns: Column[];
  prepare?(batch: Rec[]): Promise<void>;
  draw(rec: Rec): void;
  finish(): void;
}

export function printoutRun(ctx: EventCtx, plan: ExportPlan): ExportRun {
  const event = ctx.access.event;
  const label = PRESETS[plan.preset].label;
  const when = `${wallText(wallClock(new Date(), event.timezone))} (${event.timezone})`;
  const footerText = `${label} · ${event.name} · ${exportedBy(ctx)} · ${when}`;
  const subtitle = filterLines(plan.filters)
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');
  const v = ctx.access.visibility;
  const layout: BadgeLayout = plan.layout ?? 'a4';
  const landscape = plan.preset === 'emergency_sheet';
  const size = BADGE_LAYOUTS[layout].size;
  const pdf = pdfOut(
    `${label}: ${event.name}`,
    plan.preset === 'badges'
      ? typeof size === 'string'
        ? size
        : [size[0], size[1]]
      : plan.preset === 'medical_cards'
        ? 'A5'
        : 'A4',
    landscape ? 'landscape' : 'portrait',
  );
  const renderer = ((): Renderer => {
    if (plan.preset === 'badges') {
      const sheet = new BadgeSheet(pdf.doc, layout, event.name);
      let photos = new Map<string, Buffer>();
      return {
        columns: visible(BADGE_COLUMNS, v),
        async prepare(batch) {
          photos = plan.photos ? await photosOf(ctx, batch) : new Map();
        },
        draw: (r) => sheet.badge(r, photos.get(r.photo ?? '') ?? null),
        finish: () => {},
      };
    }
    if (plan.preset === 'medical_cards') {
      const cards = new MedicalCards(pdf.doc, footerText);
      return {
        columns: visible(MEDICAL_CARD_COLUMNS, v),
        draw: (r) => cards.card(r),
        finish: () => cards.finish(),
      };
    }
    if (plan.preset === 'door_list') {
      const context = plan.filters.scan_context;
      const scanned: Column[] = context
        ? [
            b(
              'scanned',
              'Scanned here',
              `(SELECT min(s.scanned_at) FROM scans s WHERE s.registration_id = r.id AND s.scan_context_id = ${Number(context.id)})`,
              'datetime',
            ),
          ]
        : [];
      const table = new PrintedTable(pdf.doc, {
        title: `Door list: ${context ? context.name : 'everyone'} · ${event.name}`,
        subtitle: `${subtitle} · sorted by last name · printed ${when}`,
        footer: footerText,
        tickBox: true,
        letterHeadings: true,
        columns: [
          { title: 'Name', weight: 34, get: fullName, bold: true },
          { title: 'Status', weight: 14, get: (r) => STATUS_WORDS[r.status ?? ''] ?? r.status ?? '' },
          { title: 'Under 18', weight: 8, get: (r) => yes(r.minor) },
          { title: 'Alerts', weight: 44, get: (r) => doorAlerts(r).join('\n') },
          ...(context
            ? [
                {
                  title: 'Scanned here',
                  weight: 14,
                  get: (r: Rec) => (r.scanned ?? '').slice(0, 16).replace('T', ' '),
                },
              ]
            : []),
        ],
      });
      return {
        columns: visible([...DOOR_COLUMNS, ...scanned], v),
        draw: (r) => table.row(r, r.last ?? ''),
        finish: () => table.finish(),
      };
    }
    const where = plan.filters.group?.name ?? plan.filters.scan_context?.name;
    const table = new PrintedTable(pdf.doc, {
      title: `Emergency contacts${where ? `: ${where}` : ''} · ${event.name}`,
      subtitle: `${subtitle} · sorted by last name · printed ${when}`,
      footer: footerText,
      tickBox: false,
      letterHeadings: false,
      columns: [
        { title: 'Name', weight: 18, get: fullName, bold: true },
        { title: 'Under 18', weight: 6, get: (r) => yes(r.minor) },
        { title: 'Phone', weight: 11, get: (r) => r.phone ?? '' },
        { title: 'Emergency contacts', weight: 22, get: (r) => (r.contacts ?? '').replaceAll('; ', '\n') },
        { title: 'Parents and guardians', weight: 20, get: (r) => r.guardians ?? '' },
        {
          title: 'Medical alert',
          weight: 12,
          get: (r) => [r.medical === 'true' ? 'Yes' : '', r.life ?? ''].filter(Boolean).join(': '),
        },
        { title: 'Authorised pickup adults', weight: 11, get: (r) => r.pickup ?? '' },
      ],
    });
    return {
      columns: visible(EMERGENCY_COLUMNS, v),
      draw: (r) => table.row(r, r.last ?? ''),
      finish: () => table.finish(),
    };
  })();

  return {
    stream: pdf.out,
    async *batches() {
      const cols = renderer.columns;
      const rows = exportRows(ctx.db, event.id, cols, plan.filters, {
        order: 'name',
        perLeg: false,
        utcTimes: false,
        contextIsTitle: plan.preset === 'door_list',
      });
      for await (const batch of rows) {
        if (pdf.out.destroyed) return;
        const recs: Rec[] = batch.map((row) => Object.fromEntries(cols.map((c, i) => [c.key, row[i]])));
        await renderer.prepare?.(recs);
        for (const rec of recs) {
          renderer.draw(rec);
          await pdf.flushed();
        }
        yield batch.length;
      }
    },
    async end() {
      renderer.finish();
      await pdf.finish();
    },
    fail: (error) => pdf.out.destroy(error),
  };
}

/** The batch's photos stored in Muster's media (PNG or JPEG), by their `/media/…` address. */
async function photosOf(ctx: EventCtx, batch: Rec[]): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(batch.map((r) => r.photo).filter((p): p is string => !!p && MEDIA.test(p)))];
  if (wanted.length === 0) return new Map();
  const shas = wanted.map((p) => MEDIA.exec(p)![1]!);
  const res = await ctx.db.execute<{ sha256: string; data: Buffer | Uint8Array }>(
    sql`SELECT DISTINCT ON (sha256) sha256, data FROM media_files
         WHERE sha256 IN (${sql.join(
           shas.map((s) => sql`${s}`),
           sql`, `,
         )}) AND content_type IN ('image/png', 'image/jpeg')`,
  );
  const bySha = new Map(res.rows.map((r) => [r.sha256, Buffer.from(r.data)]));
  const out = new Map<string, Buffer>();
  for (const p of wanted) {
    const data = bySha.get(MEDIA.exec(p)![1]!);
    if (data) out.set(p, data);
  }
  return out;
}
