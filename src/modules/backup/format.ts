/**
 * The backup file format (docs/operations.md "Backups"): a plain first line `MUSTER-BACKUP 1`, a
 * plain JSON header line (how the key was chosen, never the key), then a libsodium secretstream
 * (XChaCha20-Poly1305): its 24-byte header, then frames of `[u32 big-endian length][ciphertext]`.
 * The first frame is the manifest (JSON), the rest the gzip-compressed database image in 64 KiB
 * pieces; the last frame carries the FINAL tag, so a truncated or reordered file is refused.
 *
 * Keys: `secret_key` = HKDF-SHA256 of MUSTER_SECRET_KEY (or the data folder's generated key) with
 * info `muster backup v1`; `passphrase` = scrypt(MUSTER_BACKUP_PASSPHRASE, random 16-byte salt,
 * N=2^15, r=8, p=1). `key_id` (8 bytes of SHA-256 of the key, hex) lets restore say "another key"
 * instead of a bare decryption failure; it reveals nothing about the key.
 */
import { createHash, hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import sodium from 'libsodium-wrappers';

export const MAGIC = 'MUSTER-BACKUP 1';
export const BACKUP_KEY_INFO = 'muster backup v1';
export const PIECE = 64 * 1024;

export interface BackupHeader {
  format: 1;
  key: 'secret_key' | 'passphrase';
  key_id: string;
  /** scrypt salt (base64), passphrase keys only. */
  salt?: string;
}

export interface Manifest {
  format: 1;
  created_at: string;
  muster_version: string;
  /** Newest applied migration: drizzle tag and its journal time (ms). */
  migration: { tag: string; when: number };
  kind: 'embedded' | 'postgres';
  /** Rows per table of the `public` schema at the moment of the backup. */
  row_counts: Record<string, number>;
  /** The data folder's generated server key, carried only in passphrase backups (see docs). */
  secret_key?: string;
}

export class BackupError extends Error {}

export const keyId = (key: Uint8Array) => createHash('sha256').update(key).digest('hex').slice(0, 16);

export function passphraseKey(passphrase: string, salt: Buffer): Buffer {
  return scryptSync(passphrase.normalize('NFC'), salt, 32, {
    N: 2 ** 15,
    r: 8,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
}

/** The key and header for a new backup: the passphrase when given, else the first derived server key. */
export function newBackupKey(opts: { passphrase?: string; serverKeys: Buffer[] }): {
  key: Buffer;
  header: BackupHeader;
} {
  if (opts.passphrase) {
    const salt = randomBytes(16);
    const key = passphraseKey(opts.passphrase, salt);
    return {
      key,
      header: { format: 1, key: 'passphrase', key_id: keyId(key), salt: salt.toString('base64') },
    };
  }
  const key = opts.serverKeys[0];
  if (!key) throw new BackupError('No key to encrypt the backup with');
  return { key, header: { format: 1, key: 'secret_key', key_id: keyId(key) } };
}

/** The key that opens a backup with `header`, or a BackupError naming what is missing. */
export function keyFor(header: BackupHeader, opts: { passphrase?: string; serverKeys: Buffer[] }): Buffer {
  if (header.key === 'passphrase') {
    if (!opts.passphrase)
      throw new BackupError(
        'This backup is encrypted with a passphrase: set MUSTER_BACKUP_PASSPHRASE to restore it',
      );
    const key = passphraseKey(opts.passphrase, Buffer.from(header.salt ?? '', 'base64'));
    if (keyId(key) !== header.key_id) throw new BackupError('Wrong MUSTER_BACKUP_PASSPHRASE for this backup');
    return key;
  }
  const key = opts.serverKeys.find((k) => keyId(k) === header.key_id);
  if (!key)
    throw new BackupError(
      'This backup was encrypted with another secret key: set MUSTER_SECRET_KEY (or MUSTER_SECRET_KEY_PREVIOUS) to the key of the server that made it',
    );
  return key;
}

export async function ready(): Promise<typeof sodium> {
  await sodium.ready;
  return sodium;
}

const frame = (cipher: Uint8Array) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(cipher.length);
  return Buffer.concat([length, cipher]);
};

/**
 * Encrypts: yields the file's bytes for `manifest` followed by `body` (already compressed), cut
 * into 64 KiB pieces. Memory stays at one piece whatever the size of the database.
 */
export async function* encrypt(
  key: Buffer,
  header: BackupHeader,
  manifest: Manifest,
  body: AsyncIterable<Buffer>,
): AsyncGenerator<Buffer> {
  const s = await ready();
  const { state, header: streamHeader } = s.crypto_secretstream_xchacha20poly1305_init_push(key);
  const TAG_MESSAGE = s.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE;
  yield Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`);
  yield Buffer.from(streamHeader);
  yield frame(
    s.crypto_secretstream_xchacha20poly1305_push(
      state,
      Buffer.from(JSON.stringify(manifest)),
      null,
      TAG_MESSAGE,
    ),
  );
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= PIECE) {
      yield frame(
        s.crypto_secretstream_xchacha20poly1305_push(state, pending.subarray(0, PIECE), null, TAG_MESSAGE),
      );
      pending = pending.subarray(PIECE);
    }
  }
  const TAG_FINAL = s.crypto_secretstream_xchacha20poly1305_TAG_FINAL;
  yield frame(s.crypto_secretstream_xchacha20poly1305_push(state, pending, null, TAG_FINAL));
}

/** Backup keys derived from server keys given as base64 text (MUSTER_SECRET_KEY, a secret.key file). */
export function backupKeysFrom(values: (string | undefined)[]): Buffer[] {
  return values
    .filter((v): v is string => Boolean(v))
    .map((v) => Buffer.from(v.trim(), 'base64'))
    .filter((k) => k.length === 32)
    .map((k) => Buffer.from(hkdfSync('sha256', k, Buffer.alloc(0), BACKUP_KEY_INFO, 32)));
}
