/**
 * Medical cards (docs/exports.md "Medical cards"): one A5 card per participant for the first-aid
 * bag: name, date of birth and age, group, then allergies, conditions, medications, the action plan,
 * diet, emergency contacts, parents and guardians and the authorised pickup adults. A card too long
 * for one page continues on the next, its name repeated.
 */
import { STATUS_WORDS } from '../about.js';
import { BOLD, clean, type Doc, FONT, footer, mm } from './pdf.js';
import type { Rec } from './table.js';

const SECTIONS: [string, (r: Rec) => string][] = [
  ['Allergies', (r) => [r.allergies, r.severity ? `Severity: ${r.severity}` : ''].filter(Boolean).join('\n')],
  ['Life-threatening allergies', (r) => r.life ?? ''],
  ['Medical conditions', (r) => r.conditions ?? ''],
  [
    'Medications',
    (r) => [r.medications, r.fridge === 'true' ? 'Needs a fridge.' : ''].filter(Boolean).join('\n'),
  ],
  ['Emergency action plan', (r) => r.plan ?? ''],
  ['Medical notes', (r) => r.notes ?? ''],
  [
    'Diet',
    (r) => [r.diet, r.intolerances ? `Intolerances: ${r.intolerances}` : ''].filter(Boolean).join('\n'),
  ],
  ['Emergency contacts', (r) => r.contacts ?? ''],
  ['Parents and guardians', (r) => r.guardians ?? ''],
  [
    'Authorised pickup adults',
    (r) =>
      [r.pickup, r.minor === 'true' && r.may_leave !== 'true' ? 'May not leave alone.' : '']
        .filter(Boolean)
        .join('\n'),
  ],
];

const M = mm(10);

export class MedicalCards {
  private page = 0;

  constructor(
    private readonly doc: Doc,
    private readonly footerText: string,
  ) {}

  private start(rec: Rec, continued: boolean): number {
    const doc = this.doc;
    doc.addPage();
    this.page++;
    footer(doc, this.footerText, this.page);
    const width = doc.page.width - 2 * M;
    const name = clean(`${rec.last ?? ''}, ${rec.first ?? ''}${rec.preferred ? ` (${rec.preferred})` : ''}`);
    doc
      .font(BOLD)
      .fontSize(16)
      .fillColor('black')
      .text(continued ? `${name} (continued)` : name, M, M, { width });
    const facts = [
      rec.dob ? `Born ${rec.dob}` : '',
      rec.age ? `age ${rec.age}` : '',
      rec.minor === 'true' ? 'Under 18' : '',
      rec.group ? `Group: ${rec.group}` : '',
      STATUS_WORDS[rec.status ?? ''] ?? '',
    ].filter(Boolean);
    doc
      .font(FONT)
      .fontSize(9)
      .text(clean(facts.join(' · ')), { width });
    if (rec.anaphylaxis === 'true') {
      doc
        .moveDown(0.3)
        .font(BOLD)
        .fontSize(11)
        .fillColor('#b00020')
        .text('ANAPHYLAXIS RISK', { width })
        .fillColor('black');
    }
    return doc.y + 6;
  }

  card(rec: Rec): void {
    const doc = this.doc;
    let y = this.start(rec, false);
    const width = doc.page.width - 2 * M;
    for (const [title, get] of SECTIONS) {
      const text = clean(get(rec)).trim() || '—';
      doc.font(FONT).fontSize(9);
      const h = doc.heightOfString(text, { width }) + 16;
      const bottom = doc.page.height - M - mm(6);
      if (y + h > bottom && y > M + 60) y = this.start(rec, true);
      doc.font(BOLD).fontSize(9).text(title, M, y, { width });
      doc
        .font(FONT)
        .fontSize(9)
        .text(text, M, doc.y + 1, { width, height: bottom - doc.y - 1, ellipsis: true });
      y = doc.y + 6;
    }
  }

  finish(): void {
    if (this.page > 0) return;
    this.doc.addPage();
    footer(this.doc, this.footerText, 1);
    this.doc.font(FONT).fontSize(10).text('Nobody matches these filters.', M, M);
  }
}
