/**
 * A printed table that flows over pages (door list, emergency sheet): a title block on every page,
 * the column headings repeated, rows as tall as their longest cell, optional letter headings when
 * the first letter of the last name changes, and an optional empty tick box per row.
 */
import { BOLD, clean, type Doc, FONT, footer, mm } from './pdf.js';

export type Rec = Record<string, string | null | undefined>;

export interface TableColumn {
  title: string;
  /** Share of the free width (after the tick box). */
  weight: number;
  get(rec: Rec): string;
  bold?: boolean;
}

export interface TableSpec {
  title: string;
  subtitle: string;
  footer: string;
  columns: TableColumn[];
  tickBox: boolean;
  letterHeadings: boolean;
}

const SIZE = 9;
const PAD = 3;
const MARGIN = mm(12);

export class PrintedTable {
  private y = 0;
  private page = 0;
  private letter: string | null = null;
  private widths: number[] = [];

  constructor(
    private readonly doc: Doc,
    private readonly spec: TableSpec,
  ) {}

  private get bottom(): number {
    return this.doc.page.height - MARGIN - mm(6);
  }

  private newPage(): void {
    const { doc, spec } = this;
    doc.addPage();
    this.page++;
    footer(doc, spec.footer, this.page);
    const width = doc.page.width - 2 * MARGIN;
    const free = width - (spec.tickBox ? mm(9) : 0);
    const total = spec.columns.reduce((n, c) => n + c.weight, 0);
    this.widths = spec.columns.map((c) => (free * c.weight) / total);
    doc.font(BOLD).fontSize(14).fillColor('black').text(clean(spec.title), MARGIN, MARGIN, { width });
    doc.font(FONT).fontSize(8).text(clean(spec.subtitle), { width });
    this.y = doc.y + 6;
    let x = MARGIN + (spec.tickBox ? mm(9) : 0);
    doc.font(BOLD).fontSize(SIZE);
    const h =
      Math.max(...spec.columns.map((c, i) => doc.heightOfString(c.title, { width: this.widths[i]! - PAD }))) +
      PAD * 2;
    doc.rect(MARGIN, this.y, width, h).fill('#e8e8e8').fillColor('black');
    if (spec.tickBox) doc.text('In', MARGIN + PAD, this.y + PAD, { width: mm(9) - PAD });
    spec.columns.forEach((c, i) => {
      doc.text(c.title, x + PAD, this.y + PAD, { width: this.widths[i]! - PAD });
      x += this.widths[i]!;
    });
    this.y += h;
  }

  /** Draws one record; starts a page (and a letter heading) where needed. */
  row(rec: Rec, lastName: string): void {
    const { doc, spec } = this;
    if (this.page === 0) this.newPage();
    const letter = spec.letterHeadings ? clean(lastName).trim().charAt(0).toUpperCase() || '#' : null;
    if (letter !== null && letter !== this.letter) {
      if (this.y + 40 > this.bottom) this.newPage();
      this.letter = letter;
      doc
        .font(BOLD)
        .fontSize(12)
        .text(letter, MARGIN, this.y + 4);
      this.y = doc.y + 2;
    }
    const cells = spec.columns.map((c) => clean(c.get(rec)));
    const heights = cells.map((text, i) => {
      doc.font(spec.columns[i]!.bold ? BOLD : FONT).fontSize(SIZE);
      return doc.heightOfString(text || ' ', { width: this.widths[i]! - PAD });
    });
    const h = Math.max(...heights, SIZE) + PAD * 2;
    if (this.y + h > this.bottom) this.newPage();
    let x = MARGIN;
    if (spec.tickBox) {
      doc
        .lineWidth(0.8)
        .rect(x + PAD, this.y + PAD, 9, 9)
        .stroke('black');
      x += mm(9);
    }
    cells.forEach((text, i) => {
      doc
        .font(spec.columns[i]!.bold ? BOLD : FONT)
        .fontSize(SIZE)
        .fillColor('black');
      doc.text(text, x + PAD, this.y + PAD, { width: this.widths[i]! - PAD });
      x += this.widths[i]!;
    });
    this.y += h;
    doc
      .lineWidth(0.3)
      .moveTo(MARGIN, this.y)
      .lineTo(doc.page.width - MARGIN, this.y)
      .stroke('#999999');
  }

  /** A table with no rows still prints its page, saying so. */
  finish(): void {
    if (this.page > 0) return;
    this.newPage();
    this.doc
      .font(FONT)
      .fontSize(10)
      .text('Nobody matches these filters.', MARGIN, this.y + 8);
  }
}
