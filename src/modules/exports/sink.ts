/** What the export writers share: a byte stream filled batch by batch, with back-pressure. */
import type { Readable, Writable } from 'node:stream';
import type { Typed } from './cells.js';

export interface SheetSink {
  readonly stream: Readable;
  /** Appends rows; resolves when the output can take more. */
  write(rows: Typed[][]): Promise<void>;
  /** Ends the file (XLSX: the About sheet, then the zip directory); the stream then ends. */
  end(about: [string, Typed][]): Promise<void>;
  fail(error: Error): void;
}

/** Waits until `stream` wants more, or is gone (a client that hung up never drains it). */
export async function drained(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
