/**
 * Reading a backup file (format.ts): the plain header, then the manifest and the compressed body,
 * each frame authenticated. Any flipped byte, a frame out of order or a file cut short → BackupError.
 */
import { createReadStream } from 'node:fs';
import { BackupError, type BackupHeader, MAGIC, type Manifest, ready } from './format.js';

/** Pulls exact byte counts out of a file stream. */
class Reader {
  private buffered = Buffer.alloc(0);
  private readonly chunks: AsyncIterator<Buffer>;
  constructor(file: string) {
    this.chunks = createReadStream(file)[Symbol.asyncIterator]();
  }
  /** Exactly `n` bytes, or null at a clean end of file (nothing buffered). */
  async take(n: number): Promise<Buffer | null> {
    while (this.buffered.length < n) {
      const next = await this.chunks.next();
      if (next.done) {
        if (this.buffered.length === 0) return null;
        throw new BackupError('The backup file is cut short');
      }
      this.buffered = Buffer.concat([this.buffered, next.value]);
    }
    const out = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    return out;
  }
  async line(max: number): Promise<string> {
    const bytes: number[] = [];
    for (;;) {
      const b = await this.take(1);
      if (!b) throw new BackupError('Not a Muster backup file');
      if (b[0] === 0x0a) return Buffer.from(bytes).toString('utf8');
      bytes.push(b[0] as number);
      if (bytes.length > max) throw new BackupError('Not a Muster backup file');
    }
  }
}

export interface OpenedBackup {
  header: BackupHeader;
  manifest: Manifest;
  /** The compressed database image, piece by piece; throws BackupError on tampering or truncation. */
  body: AsyncGenerator<Buffer>;
}

/** Reads a backup's plain header only (no key needed). */
export async function readHeader(file: string): Promise<BackupHeader> {
  const reader = new Reader(file);
  return parseHeader(reader);
}

async function parseHeader(reader: Reader): Promise<BackupHeader> {
  if ((await reader.line(64)) !== MAGIC) throw new BackupError('Not a Muster backup file');
  try {
    const header = JSON.parse(await reader.line(4096)) as BackupHeader;
    if (header.format !== 1 || typeof header.key_id !== 'string') throw new Error('format');
    return header;
  } catch {
    throw new BackupError('Not a Muster backup file (unreadable header)');
  }
}

/** Opens `file` with the key `pick` chooses from its header. */
export async function openBackup(
  file: string,
  pick: (header: BackupHeader) => Buffer,
): Promise<OpenedBackup> {
  const s = await ready();
  const reader = new Reader(file);
  const header = await parseHeader(reader);
  const key = pick(header);
  const streamHeader = await reader.take(s.crypto_secretstream_xchacha20poly1305_HEADERBYTES);
  if (!streamHeader) throw new BackupError('The backup file is cut short');
  const state = s.crypto_secretstream_xchacha20poly1305_init_pull(streamHeader, key);
  const nextFrame = async () => {
    const length = await reader.take(4);
    if (!length) return null;
    const cipher = await reader.take(length.readUInt32BE(0));
    if (!cipher) throw new BackupError('The backup file is cut short');
    const opened = s.crypto_secretstream_xchacha20poly1305_pull(state, cipher, null);
    if (!opened) throw new BackupError('The backup file is damaged or was altered (authentication failed)');
    return opened;
  };
  const first = await nextFrame();
  if (!first) throw new BackupError('The backup file is cut short');
  const manifest = JSON.parse(Buffer.from(first.message).toString('utf8')) as Manifest;
  const FINAL = s.crypto_secretstream_xchacha20poly1305_TAG_FINAL;
  async function* body(): AsyncGenerator<Buffer> {
    for (;;) {
      const frame = await nextFrame();
      if (!frame) throw new BackupError('The backup file is cut short (no final piece)');
      if (frame.message.length) yield Buffer.from(frame.message);
      if (frame.tag === FINAL) {
        if (await reader.take(1)) throw new BackupError('The backup file has data after its end');
        return;
      }
    }
  }
  return { header, manifest, body: body() };
}
