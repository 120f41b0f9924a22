/**
 * Credential secrets (docs/decisions.md "Credentials and roles"). Pinned by test/unit/secrets.test.ts (property tests) and the
 * authorization matrix. Formats:
 * - mobile token: `mst_m_` + 43 base62 random chars (≈256 bits) + 6 base62 chars of CRC-32;
 * - API secrets: `mst_g_` (global token), `mst_s_` (series key), `mst_e_` (event key) + 32 base62
 *   random chars + 6 base62 chars of CRC-32 over prefix+random.
 *   CRC-32 catches every single-character change, and no one-character edit turns one format into
 *   another (the lengths differ by 11), so a mistyped secret is refused without a database query;
 * - legacy per-event key: 32 to 64 lowercase hex chars.
 * Only the SHA-256 hex digest of a secret is ever stored or compared.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type SecretKind = 'mobile' | 'global' | 'series_key' | 'event_key' | 'legacy_event_key';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = { global: 'mst_g_', series_key: 'mst_s_', event_key: 'mst_e_' } as const;
const MOBILE_PREFIX = 'mst_m_';
const BODY_LENGTH = 32;
const MOBILE_BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const API_SECRET = /^mst_([gse])_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;
const MOBILE = /^mst_m_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;
const LEGACY = /^[0-9a-f]{32,64}$/;

function base62(value: number, width: number): string {
  let out = '';
  let n = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function checksum(prefixAndBody: string): string {
  return base62(crc32(prefixAndBody), CHECKSUM_LENGTH);
}

/** SHA-256 hex digest: the only form in which secrets are stored. */
export function digestSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function randomBase62(length: number): string {
  let body = '';
  for (let i = 0; i < length; i++) body += ALPHABET[randomInt(62)];
  return body;
}

export function generateMobileToken(): string {
  const head = MOBILE_PREFIX + randomBase62(MOBILE_BODY_LENGTH);
  return head + checksum(head);
}

export function generateApiSecret(kind: keyof typeof PREFIX): string {
  const head = PREFIX[kind] + randomBase62(BODY_LENGTH);
  return head + checksum(head);
}

/** A random legacy per-event key (64 hex chars). */
export function generateLegacyEventKey(): string {
  return randomBytes(32).toString('hex');
}

/** Classifies a presented secret by format and checksum alone; null means "reject without a query". */
export function classifySecret(secret: string): { kind: SecretKind; digest: string } | null {
  const api = API_SECRET.exec(secret);
  if (api) {
    const head = secret.slice(0, secret.length - CHECKSUM_LENGTH);
    if (checksum(head) !== api[3]) return null;
    const kind = api[1] === 'g' ? 'global' : api[1] === 's' ? 'series_key' : 'event_key';
    return { kind, digest: digestSecret(secret) };
  }
  const mobile = MOBILE.exec(secret);
  if (mobile) {
    if (checksum(secret.slice(0, secret.length - CHECKSUM_LENGTH)) !== mobile[2]) return null;
    return { kind: 'mobile', digest: digestSecret(secret) };
  }
  if (LEGACY.test(secret)) return { kind: 'legacy_event_key', digest: digestSecret(secret) };
  return null;
}

/** Constant-time string comparison (signatures, OAuth `state`): no early exit on the first difference. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
