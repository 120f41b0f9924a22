/**
 * Name badges (docs/exports.md "Badges"): one badge per registration on A4 label sheets (Avery
 * L7165: 2 × 4 of 99.1 × 67.7 mm), US Letter badge inserts (Avery 5392: 2 × 3 of 4 × 3 in), or one
 * badge per page for label printers (4 × 3 in, 100 × 62 mm). A badge shows the name people use
 * (preferred, else first) large, the full name, pronouns, the first group's name on a band of its
 * colour, the ticket QR code (the registration UUID) and, when asked and stored in Muster's media,
 * the photo.
 */
import { BOLD, clean, type Doc, FONT, mm } from './pdf.js';
import { drawQr } from './qr.js';
import type { Rec } from './table.js';

export const BADGE_LAYOUTS = {
  a4: {
    size: 'A4',
    cols: 2,
    rows: 4,
    w: mm(99.1),
    h: mm(67.7),
    left: mm(4.65),
    top: mm(13.1),
    pitchX: mm(101.6),
  },
  letter: { size: 'LETTER', cols: 2, rows: 3, w: 288, h: 216, left: 18, top: 72, pitchX: 288 },
  'label-4x3': { size: [288, 216], cols: 1, rows: 1, w: 288, h: 216, left: 0, top: 0, pitchX: 288 },
  'label-62x100': {
    size: [mm(100), mm(62)],
    cols: 1,
    rows: 1,
    w: mm(100),
    h: mm(62),
    left: 0,
    top: 0,
    pitchX: mm(100),
  },
} as const;
export type BadgeLayout = keyof typeof BADGE_LAYOUTS;

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** Black or white text, whichever reads better on `hex`. */
function ink(hex: string): string {
  const channel = (i: number) => Number.parseInt(hex.slice(i, i + 2), 16) / 255;
  const [r, g, b] = [channel(1), channel(3), channel(5)];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55 ? 'black' : 'white';
}

function fitSize(doc: Doc, text: string, font: string, max: number, width: number, min = 8): number {
  let size = max;
  doc.font(font);
  while (size > min && doc.fontSize(size).widthOfString(text) > width) size -= 1;
  return size;
}

export class BadgeSheet {
  private slot = 0;
  private readonly spec;

  constructor(
    private readonly doc: Doc,
    layout: BadgeLayout,
    private readonly eventName: string,
  ) {
    this.spec = BADGE_LAYOUTS[layout];
  }

  badge(rec: Rec, photo: Buffer | null): void {
    const { doc, spec } = this;
    const perPage = spec.cols * spec.rows;
    if (this.slot % perPage === 0) doc.addPage();
    const i = this.slot % perPage;
    this.slot++;
    const x = spec.left + (i % spec.cols) * spec.pitchX;
    const y = spec.top + Math.floor(i / spec.cols) * spec.h;
    this.draw(rec, photo, x, y, spec.w, spec.h);
  }

  private draw(rec: Rec, photo: Buffer | null, x: number, y: number, w: number, h: number): void {
    const doc = this.doc;
    const pad = mm(4);
    doc
      .lineWidth(0.5)
      .roundedRect(x + 2, y + 2, w - 4, h - 4, 6)
      .stroke('#bbbbbb');
    const band = h * 0.16;
    const color = rec.color && COLOR.test(rec.color) ? rec.color : null;
    if (rec.group || color) {
      doc.rect(x + 2, y + 2, w - 4, band).fill(color ?? '#dddddd');
      doc
        .font(BOLD)
        .fontSize(Math.min(11, band * 0.6))
        .fillColor(color ? ink(color) : 'black');
      doc.text(clean(rec.group), x + pad, y + 2 + band * 0.25, {
        width: w - 2 * pad,
        height: band,
        lineBreak: false,
        ellipsis: true,
      });
      doc.fillColor('black');
    }
    const qr = Math.min(h * 0.5, w * 0.36);
    if (rec.uuid) drawQr(doc, rec.uuid, x + w - qr - pad / 2, y + h - qr - pad / 2, qr);
    let left = x + pad;
    const top = y + band + pad;
    if (photo) {
      const ph = h * 0.42;
      try {
        doc.image(photo, left, top, { fit: [ph, ph] });
        left += ph + pad;
      } catch {
        // An unreadable image prints no photo rather than no badge.
      }
    }
    const width = x + w - pad - left;
    const shown = clean(rec.preferred || rec.first);
    doc
      .font(BOLD)
      .fontSize(fitSize(doc, shown, BOLD, 26, width))
      .fillColor('black');
    doc.text(shown, left, top, { width, lineBreak: false });
    const full = clean(`${rec.first ?? ''} ${rec.last ?? ''}`.trim());
    doc.font(FONT).fontSize(fitSize(doc, full, FONT, 12, width));
    doc.text(full, left, doc.y + 2, { width, lineBreak: false });
    if (rec.pronouns) {
      doc.font('Helvetica-Oblique').fontSize(10);
      doc.text(clean(rec.pronouns), left, doc.y + 2, { width, lineBreak: false, ellipsis: true });
    }
    doc.font(FONT).fontSize(7).fillColor('#555555');
    doc.text(clean(this.eventName), x + pad, y + h - pad - 8, {
      width: w - qr - 2 * pad,
      lineBreak: false,
      ellipsis: true,
    });
    doc.fillColor('black');
  }
}
