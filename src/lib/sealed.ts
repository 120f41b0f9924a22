/**
 * Sealing secrets that must wait in the database (e.g. a sign-in code inside a queued email job):
 * AES-256-GCM with a server key, so a database dump never shows them in plain text.
 * Key: MUSTER_SECRET_KEY (32 bytes, base64); else `<data dir>/secret.key` (created 0600) for the
 * embedded database; else a per-process key (queued secrets do not survive a restart; logged).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Sealer {
  seal(value: unknown): string;
  /** HMAC-SHA256 (hex) under the server key: for low-entropy secrets such as 6-digit codes. */
  mac(value: string): string;
  unseal<T>(sealed: string): T;
  /** Where the key came from: 'env' | 'file' | 'ephemeral'. */
  readonly source: 'env' | 'file' | 'ephemeral';
}

export function createSealer(opts: { secretKey?: string; dataDir?: string; databaseUrl?: string }): Sealer {
  let key: Buffer;
  let source: Sealer['source'];
  if (opts.secretKey) {
    key = Buffer.from(opts.secretKey, 'base64');
    source = 'env';
  } else if (!opts.databaseUrl && opts.dataDir && opts.dataDir !== 'memory://') {
    const file = path.join(path.resolve(opts.dataDir), 'secret.key');
    if (!existsSync(file)) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
    }
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    source = 'file';
  } else {
    key = randomBytes(32);
    source = 'ephemeral';
  }
  if (key.length !== 32) throw new Error('MUSTER_SECRET_KEY must be 32 bytes, base64-encoded');
  return {
    source,
    mac: (value) => createHmac('sha256', key).update(value, 'utf8').digest('hex'),
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
    },
    unseal<T>(sealed: string): T {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as T;
    },
  };
}
