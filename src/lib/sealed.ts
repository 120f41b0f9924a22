/**
 * Sealing secrets that must wait in the database or in a cookie (a sign-in code inside a queued
 * email job, a web session): AES-256-GCM with a server key, so a database dump never shows them in
 * plain text.
 * Key: MUSTER_SECRET_KEY (32 bytes, base64; `muster secret-key` prints a new one); else
 * `<data dir>/secret.key` (created 0600) for the embedded database; else (PostgreSQL in tests and
 * scripts: `muster serve` and `muster worker` refuse to start without the key, requireSharedKey) a
 * per-process key. Rotation: MUSTER_SECRET_KEY_PREVIOUS (the key being replaced) still opens what it
 * sealed and still verifies its MACs; everything new is sealed and MACed with MUSTER_SECRET_KEY.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Sealer {
  /** `v1.<iv>.<tag>.<ciphertext>` (base64url parts) of the JSON of `value`, under the current key. */
  seal(value: unknown): string;
  /** HMAC-SHA256 (hex) under the current key: for low-entropy secrets such as 6-digit codes. */
  mac(value: string): string;
  /** The MAC under every accepted key, current first: to verify a MAC made before a rotation. */
  macs(value: string): string[];
  /** Opens a sealed value with the current key, else the previous one. Throws if neither opens it. */
  unseal<T>(sealed: string): T;
  /**
   * 32-byte keys for another purpose (`info`, e.g. `muster backup v1`), derived with HKDF-SHA256 from
   * every accepted key, current first: the server key itself is never handed out.
   */
  deriveKeys(info: string): Buffer[];
  /** Where the current key came from. */
  readonly source: 'env' | 'file' | 'ephemeral';
}

/** Thrown when a configured key is not 32 bytes of base64. */
export class SecretKeyError extends Error {}

/** A new random key in the form MUSTER_SECRET_KEY takes (32 bytes, base64). */
export function generateSecretKey(): string {
  return randomBytes(32).toString('base64');
}

function parseKey(value: string, name: string): Buffer {
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) throw new SecretKeyError(`${name} must be 32 bytes, base64-encoded`);
  return key;
}

function currentKey(opts: { secretKey?: string; dataDir?: string; databaseUrl?: string }): {
  key: Buffer;
  source: Sealer['source'];
} {
  if (opts.secretKey) return { key: parseKey(opts.secretKey, 'MUSTER_SECRET_KEY'), source: 'env' };
  if (!opts.databaseUrl && opts.dataDir && opts.dataDir !== 'memory://') {
    const file = path.join(path.resolve(opts.dataDir), 'secret.key');
    if (!existsSync(file)) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, generateSecretKey(), { mode: 0o600 });
    }
    return { key: parseKey(readFileSync(file, 'utf8').trim(), file), source: 'file' };
  }
  return { key: randomBytes(32), source: 'ephemeral' };
}

function open(key: Buffer, iv: string, tag: string, body: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
}

export function createSealer(opts: {
  secretKey?: string;
  previousSecretKey?: string;
  dataDir?: string;
  databaseUrl?: string;
}): Sealer {
  const { key, source } = currentKey(opts);
  const previous = opts.previousSecretKey
    ? parseKey(opts.previousSecretKey, 'MUSTER_SECRET_KEY_PREVIOUS')
    : undefined;
  const keys = previous ? [key, previous] : [key];
  const hmac = (k: Buffer, value: string) => createHmac('sha256', k).update(value, 'utf8').digest('hex');
  return {
    source,
    deriveKeys: (info) => keys.map((k) => Buffer.from(hkdfSync('sha256', k, Buffer.alloc(0), info, 32))),
    mac: (value) => hmac(key, value),
    macs: (value) => keys.map((k) => hmac(k, value)),
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
    },
    unseal<T>(sealed: string): T {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed value');
      let failure: unknown;
      for (const k of keys) {
        try {
          return JSON.parse(open(k, iv, tag, body).toString('utf8')) as T;
        } catch (error) {
          failure ??= error; // the authentication tag does not match this key: try the next
        }
      }
      throw failure;
    },
  };
}

/**
 * On PostgreSQL every process must seal with the same key (a code queued by one process is emailed
 * by another; a web session set by one instance is read by the next): `muster serve` and
 * `muster worker` call this first. Throws SecretKeyError naming the command that makes a key.
 */
export function requireSharedKey(config: { databaseUrl?: string; secretKey?: string }): void {
  if (!config.databaseUrl || config.secretKey) return;
  throw new SecretKeyError(
    'MUSTER_SECRET_KEY is not set. With PostgreSQL (DATABASE_URL) every Muster process must share ' +
      'one secret key. Create one with `muster secret-key` and set MUSTER_SECRET_KEY to it for every ' +
      'serve and worker process.',
  );
}
