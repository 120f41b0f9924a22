/**
 * pdfkit plumbing of the printouts (docs/exports.md "Printouts"): a document piped into the
 * response with back-pressure, text made safe for the standard fonts, millimetres, and the footer
 * every page carries. Pages are written out as soon as the next one starts (no page buffering), and
 * pdfkit then forgets them but for their object number (`releaseWrittenPages`), so memory stays
 * flat whatever the number of pages.
 */
import { PassThrough } from 'node:stream';
import { lazyModule } from '../../../lib/lazy-module.js';
import { releaseWrittenPages } from './pdf-pages.js';

/** pdfkit is loaded on the first PDF, not at start-up. */
const pdfkit = lazyModule<typeof import('pdfkit')>('pdfkit');

export type Doc = PDFKit.PDFDocument;
export const mm = (n: number) => (n * 72) / 25.4;
export const FONT = 'Helvetica';
export const BOLD = 'Helvetica-Bold';

/**
 * Most the document may hold unread before the writer waits for the client (checked after every
 * badge, card or row). Small on purpose: bytes that wait long outlive V8's young collections and
 * pile up as old garbage until its external-memory limit (64 MB) forces a full collection
 * (docs/performance.md "Papers: what a badge page keeps").
 */
const BUFFERED = 64 << 10;

export interface PdfOut {
  doc: Doc;
  out: PassThrough;
  /** Resolves when the client has taken what was written (or has gone). */
  flushed(): Promise<void>;
  finish(): Promise<void>;
}

export function pdfOut(
  title: string,
  size: [number, number] | string,
  layout: 'portrait' | 'landscape' = 'portrait',
): PdfOut {
  const PDFDocument = pdfkit();
  const doc = new PDFDocument({
    size,
    layout,
    margin: 0,
    autoFirstPage: false,
    bufferPages: false,
    compress: true,
    info: { Title: title, Creator: 'Muster' },
  });
  releaseWrittenPages(doc);
  const out = new PassThrough();
  doc.pipe(out);
  return {
    doc,
    out,
    async flushed() {
      while (!out.destroyed && (out.writableNeedDrain || doc.readableLength > BUFFERED)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('close', done);
            resolve();
          };
          out.once('drain', done);
          out.once('close', done);
          if (!out.writableNeedDrain) setImmediate(done);
        });
      }
    },
    finish() {
      return new Promise<void>((resolve, reject) => {
        out.once('finish', () => resolve());
        out.once('error', reject);
        doc.end();
      });
    },
  };
}

/** Characters the standard PDF fonts (WinAnsi) can show; others lose their accents or become `?`. */
const WIN_ANSI = /[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g;

/** Text for the standard fonts: line ends kept, controls dropped, accents stripped where needed. */
export function clean(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line.replace(WIN_ANSI, (ch) =>
        ch
          .normalize('NFKD')
          .replace(/[\u0300-\u036f]/g, '')
          .replace(WIN_ANSI, '?'),
      ),
    )
    .join('\n');
}

/** The line at the foot of every page: what, for whom, when, page number. */
export function footer(doc: Doc, text: string, page: number): void {
  const { width, height } = doc.page;
  doc
    .font(FONT)
    .fontSize(7)
    .fillColor('#555555')
    .text(`${clean(text)} · page ${page}`, mm(10), height - mm(8), {
      width: width - mm(20),
      height: mm(5),
      lineBreak: false,
      ellipsis: true,
    })
    .fillColor('black');
}
