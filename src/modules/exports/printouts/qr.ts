/**
 * The badge's ticket QR code (docs/exports.md "Badges"): the registration UUID as a bare string
 * (the tickets' `qr_payload`), encoded by the `qrcode` package and drawn as vector squares (one
 * rectangle per run of dark modules in a row), with the 4-module quiet zone scanners need.
 */
import QRCode from 'qrcode';
import type { Doc } from './pdf.js';

/** Draws `text` as a QR code whose outer square (quiet zone included) is `size` points wide. */
export function drawQr(doc: Doc, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const cell = size / (n + 8);
  const ox = x + 4 * cell;
  const oy = y + 4 * cell;
  doc.save().rect(x, y, size, size).fill('white');
  for (let row = 0; row < n; row++) {
    let start = -1;
    for (let col = 0; col <= n; col++) {
      const dark = col < n && qr.modules.get(row, col);
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        doc.rect(ox + start * cell, oy + row * cell, (col - start) * cell, cell);
        start = -1;
      }
    }
  }
  doc.fill('black').restore();
}
