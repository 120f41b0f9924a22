/**
 * pdfkit forgets the pages it has written (src/modules/exports/printouts/pdf-pages.ts,
 * docs/performance.md "Papers: what a badge page keeps"). The adapter relies on pdfkit 0.20.2's
 * internals; these tests fail if they change shape: the adapter must find them, release every
 * written page's dictionary (collectable: checked with a WeakRef and a forced collection), leave
 * the current page alone, and change nothing in the file: the same bytes as pdfkit alone, which
 * pdf-parse reads back page by page in order.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PDFParse } from 'pdf-parse';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { pageKids, releaseWrittenPages } from '../../src/modules/exports/printouts/pdf-pages.js';

const require = createRequire(import.meta.url);
const PAGES = 30;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function makeDoc() {
  return new PDFDocument({
    size: 'A4',
    autoFirstPage: false,
    info: { CreationDate: new Date('2026-11-29T00:00:00Z'), Title: 'Pages' },
  });
}

async function render(release: boolean, during?: (doc: PDFKit.PDFDocument, page: number) => void) {
  const doc = makeDoc();
  expect(releaseWrittenPages(doc)).toBe(true);
  if (!release) doc.removeAllListeners('pageAdded');
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  for (let page = 1; page <= PAGES; page++) {
    doc.addPage().font('Helvetica').fontSize(20).text(`Badge page ${page}`, 50, 50);
    doc.rect(50, 100, 40, 40).fill('#336699');
    during?.(doc, page);
  }
  doc.end();
  await ended;
  return { doc, bytes: Buffer.concat(chunks) };
}

describe('pdfkit releases written pages', () => {
  it('is pdfkit 0.20.2, whose internals the adapter relies on', () => {
    const pkg = JSON.parse(
      readFileSync(require.resolve('pdfkit').replace(/js\/pdfkit\.js$/, 'package.json'), 'utf8'),
    );
    expect(pkg.version).toBe('0.20.2');
  });

  it('keeps only the object number of every written page, and the current page whole', async () => {
    let first: WeakRef<object> | undefined;
    const { doc } = await render(true, (doc, page) => {
      const kids = pageKids(doc)!;
      expect(kids).toHaveLength(page);
      const current = kids[page - 1] as unknown as { data: { Type: string } };
      expect(current).toBe(doc.page.dictionary);
      expect(current.data.Type).toBe('Page');
      if (page === 1) first = new WeakRef(doc.page.dictionary);
      for (const written of kids.slice(0, -1)) {
        expect(written.data).toBeUndefined();
        expect(String(written)).toMatch(/^\d+ 0 R$/);
      }
    });
    // A WeakRef holds its target until the task that made it ends; the document is still alive.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(pageKids(doc)).toHaveLength(PAGES);
    expect(first!.deref()).toBeUndefined();
  });

  it('writes the same bytes as pdfkit alone, read back page by page in order', async () => {
    const released = (await render(true)).bytes;
    expect(released.equals((await render(false)).bytes)).toBe(true);
    const parser = new PDFParse({ data: new Uint8Array(released) });
    try {
      const { pages } = await parser.getText();
      expect(pages.map((p) => p.text.trim())).toEqual(
        Array.from({ length: PAGES }, (_, i) => `Badge page ${i + 1}`),
      );
    } finally {
      await parser.destroy();
    }
  });
});
