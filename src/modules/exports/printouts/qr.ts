/**
 * The badge's ticket QR code (docs/exports.md "Badges"): the registration UUID as a bare string
 * (the tickets' `qr_payload`), encoded by the `qrcode` package and drawn as vector squares (one
 * rectangle per run of dark modules in a row), with the 4-module quiet zone scanners need.
 *
 * The rectangles go into the page as one content write in module units under a scaling transform
 * (`3 0 5 1 re` …), not one pdfkit `rect()` each: a code holds ~300 runs, and pdfkit keeps every
 * write as a small array until the page ends, which is long enough for V8 to move them to its old
 * generation as garbage (docs/performance.md "Papers: what a badge page keeps").
 */
import QRCode from 'qrcode';
import type { Doc } from './pdf.js';

/** Draws `text` as a QR code whose outer square (quiet zone included) is `size` points wide. */
export function drawQr(doc: Doc, text: string, x: number, y: number, size: number): void {
  // One byte-mode segment: the package's search for the shortest mix of modes allocates ~130 KB a
  // code (a UUID fits version 3 either way; the search sometimes finds version 2).
  const qr = QRCode.create([{ data: Buffer.from(text), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const cell = size / (n + 8);
  doc.save().rect(x, y, size, size).fill('white');
  const runs: string[] = [];
  for (let row = 0; row < n; row++) {
    let start = -1;
    for (let col = 0; col <= n; col++) {
      const dark = col < n && qr.modules.get(row, col);
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        runs.push(`${start} ${row} ${col - start} 1 re`);
        start = -1;
      }
    }
  }
  // Module (0, 0) at the code's top-left corner inside the quiet zone, one unit a module.
  doc.transform(cell, 0, 0, cell, x + 4 * cell, y + 4 * cell);
  doc.addContent(runs.join('\n'));
  doc.fill('black').restore();
}
