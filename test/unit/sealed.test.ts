/** Sealing under MUSTER_SECRET_KEY with rotation: the previous key opens and verifies, never seals. */
import { describe, expect, it } from 'vitest';
import { createSealer, generateSecretKey, requireSharedKey, SecretKeyError } from '../../src/lib/sealed.js';

const oldKey = generateSecretKey();
const newKey = generateSecretKey();

describe('sealer', () => {
  it('opens what the previous key sealed once it is MUSTER_SECRET_KEY_PREVIOUS', () => {
    const before = createSealer({ secretKey: oldKey });
    const sealed = before.seal({ code: '123456' });
    const rotated = createSealer({ secretKey: newKey, previousSecretKey: oldKey });
    expect(rotated.unseal(sealed)).toEqual({ code: '123456' });
    // Without the previous key it no longer opens.
    expect(() => createSealer({ secretKey: newKey }).unseal(sealed)).toThrow();
  });

  it('seals and MACs new values with the new key only', () => {
    const rotated = createSealer({ secretKey: newKey, previousSecretKey: oldKey });
    const sealed = rotated.seal({ t: 'session' });
    expect(createSealer({ secretKey: newKey }).unseal(sealed)).toEqual({ t: 'session' });
    expect(() => createSealer({ secretKey: oldKey }).unseal(sealed)).toThrow();
    expect(rotated.mac('x')).toBe(createSealer({ secretKey: newKey }).mac('x'));
    expect(rotated.macs('x')).toEqual([
      createSealer({ secretKey: newKey }).mac('x'),
      createSealer({ secretKey: oldKey }).mac('x'),
    ]);
  });

  it('refuses a key that is not 32 bytes of base64', () => {
    expect(() => createSealer({ secretKey: Buffer.alloc(16).toString('base64') })).toThrow(SecretKeyError);
    expect(() => createSealer({ secretKey: newKey, previousSecretKey: 'c2hvcnQ=' })).toThrow(
      /MUSTER_SECRET_KEY_PREVIOUS/,
    );
  });

  it('requires the shared key on PostgreSQL only', () => {
    expect(() => requireSharedKey({ databaseUrl: 'postgres://x/y' })).toThrow(/muster secret-key/);
    expect(() => requireSharedKey({ databaseUrl: 'postgres://x/y', secretKey: newKey })).not.toThrow();
    expect(() => requireSharedKey({ databaseUrl: undefined })).not.toThrow();
  });
});
