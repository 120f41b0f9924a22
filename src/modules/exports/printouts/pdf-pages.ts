/**
 * Lets pdfkit forget the pages it has written (docs/performance.md "Papers: what a badge page
 * keeps"). pdfkit writes a page's objects to the output as soon as the next page starts
 * (`bufferPages: false`), but it must list every page in the page tree (`/Kids`) at the end, and it
 * keeps each page's dictionary there until then: the dictionary's `PDFReference` holds its data
 * (MediaBox, Contents and Resources references), and through them the page's content stream and
 * resources objects with their data (ProcSet, Font and ColorSpace dictionaries): about 1 KB a page,
 * 13 MB for 100,000 A4 badges, 100 MB for 100,000 single-badge labels. To write `/Kids` pdfkit only
 * needs each entry's `toString()` ("12 0 R"); its cross-reference table keeps each object's offset
 * apart (`_offsets`, one number an object). So once a page is written, its `/Kids` entry is
 * replaced by a small reference holding only its object number: ~32 bytes a page remain.
 *
 * Relies on pdfkit 0.20.2's internals (pinned in package-lock.json): `doc._root.data.Pages.data.Kids`
 * is the array of page dictionaries; a dictionary is a `PDFReference` (`id`, `gen`, `data`) whose
 * `offset` is set once it is written; the page tree is written by `PDFObject.convert`, which prints
 * any `PDFAbstractReference` (the base class of `PDFReference`) through its `toString()`; pdfkit
 * emits `pageAdded` after pushing the new page, and has written the earlier ones by then. If that
 * shape is not found, nothing is released (the PDF is the same, only larger in memory);
 * test/exports/pdf-pages.test.ts fails then.
 */
import type { Doc } from './pdf.js';

interface Written {
  id: number;
  gen: number;
  offset?: number;
  data?: unknown;
}
interface Internals {
  _root?: { data?: { Pages?: { data?: { Kids?: unknown } } } };
}

type Reference = abstract new () => object;

/** The class pdfkit prints as a reference, from its catalog object; null if not found. */
function referenceClass(doc: Doc): Reference | null {
  const root = (doc as unknown as Internals)._root;
  const abstract = root && Object.getPrototypeOf(Object.getPrototypeOf(root));
  const ctor = abstract?.constructor;
  return typeof ctor === 'function' && ctor !== Object && root instanceof ctor ? (ctor as Reference) : null;
}

/** The page tree's `/Kids` array, or null if pdfkit no longer keeps it where 0.20.2 did. */
export function pageKids(doc: Doc): Written[] | null {
  const kids = (doc as unknown as Internals)._root?.data?.Pages?.data?.Kids;
  return Array.isArray(kids) ? (kids as Written[]) : null;
}

const isWritten = (ref: Written) =>
  Number.isInteger(ref.id) && ref.gen === 0 && typeof ref.offset === 'number' && ref.data !== undefined;

/**
 * Releases each page's objects once pdfkit has written it. Returns whether it could (pdfkit's
 * shape as in 0.20.2); false leaves the document as pdfkit made it.
 */
export function releaseWrittenPages(doc: Doc): boolean {
  const Base = referenceClass(doc);
  const kids = pageKids(doc);
  if (!Base || !kids) return false;
  class WrittenPage extends Base {
    constructor(readonly id: number) {
      super();
    }
    override toString() {
      return `${this.id} 0 R`;
    }
  }
  let done = 0;
  doc.on('pageAdded', () => {
    // The last entry is the page just added; every one before it has been written.
    for (; done < kids.length - 1; done++) {
      const ref = kids[done]!;
      if (!isWritten(ref)) return;
      kids[done] = new WrittenPage(ref.id) as unknown as Written;
    }
  });
  return true;
}
