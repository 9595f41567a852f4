import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { AesGcmSecretBox, FixedKeyring, KeyFileKeyring, keyId, newSecretKey, parseSecretKey, SEALED_PREFIX } from './secrets';

describe('secrets at rest (AES-256-GCM under a keyring)', () => {
  const k1 = parseSecretKey(newSecretKey(), 'k1');
  const k2 = parseSecretKey(newSecretKey(), 'k2');

  it('seals with the current key and opens again; the sealed form names the key and never holds the plaintext', () => {
    const box = new AesGcmSecretBox(new FixedKeyring([k1]));
    const sealed = box.seal('whsec_plaintext');
    expect(sealed.startsWith(`${SEALED_PREFIX}${keyId(k1)}:`)).toBe(true);
    expect(sealed).not.toContain('whsec_plaintext');
    expect(box.seal('whsec_plaintext')).not.toBe(sealed); // a fresh IV each time
    expect(box.open(sealed)).toBe('whsec_plaintext');
    expect(box.isCurrent(sealed)).toBe(true);
    // Plaintext from before sealing existed opens as it is, and is not current.
    expect(box.open('whsec_legacy')).toBe('whsec_legacy');
    expect(box.isCurrent('whsec_legacy')).toBe(false);
    expect([box.isSealed(sealed), box.isSealed('whsec_legacy')]).toEqual([true, false]);
  });

  it('a rotated ring opens what the old key sealed and seals under the new one', () => {
    const old = new AesGcmSecretBox(new FixedKeyring([k1]));
    const sealed = old.seal('s3cret');
    const rotated = new AesGcmSecretBox(new FixedKeyring([k1, k2]));
    expect(rotated.open(sealed)).toBe('s3cret');
    expect(rotated.isCurrent(sealed)).toBe(false);
    expect(rotated.seal('s3cret').startsWith(`${SEALED_PREFIX}${keyId(k2)}:`)).toBe(true);
  });

  it('refuses a tampered value, a value under a key it does not hold, and bad keys', () => {
    const box = new AesGcmSecretBox(new FixedKeyring([k1]));
    const sealed = box.seal('s3cret');
    const body = sealed.slice(sealed.lastIndexOf(':') + 1);
    const flipped = (body[0] === 'A' ? 'B' : 'A') + body.slice(1);
    expect(() => box.open(sealed.slice(0, sealed.lastIndexOf(':') + 1) + flipped)).toThrow();
    expect(() => new AesGcmSecretBox(new FixedKeyring([k2])).open(sealed)).toThrow(/not in the keyring/);
    expect(() => parseSecretKey('too short', 'X')).toThrow(/32 random bytes/);
    expect(parseSecretKey('ab'.repeat(32), 'X')).toHaveLength(32);
    expect(() => new FixedKeyring([])).toThrow();
  });

  it('the key file: created once with mode 0600, shared by processes starting together, rotated by appending', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-keys-'));
    try {
      const path = join(dir, 'data', 'secret.keys');
      const a = new KeyFileKeyring(path);
      const b = new KeyFileKeyring(path);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(a.keys().map(keyId)).toEqual(b.keys().map(keyId));
      const sealedBefore = new AesGcmSecretBox(b).seal('x');
      const fresh = a.rotate();
      expect(
        readFileSync(path, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => !l.startsWith('#')),
      ).toHaveLength(2);
      // Another process's ring sees the rotation on its next use.
      const boxB = new AesGcmSecretBox(b);
      expect(boxB.seal('y').startsWith(`${SEALED_PREFIX}${keyId(fresh)}:`)).toBe(true);
      expect(boxB.open(sealedBefore)).toBe('x');
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('configuration: QUIRE_SECRET_KEY must be a 32-byte key; QUIRE_SECRET_KEY_PREVIOUS needs it', () => {
    const key = newSecretKey();
    expect(loadConfig({ QUIRE_SECRET_KEY: key }).secretKey).toEqual(Buffer.from(key, 'base64'));
    expect(loadConfig({}).secretKey).toBeNull();
    expect(() => loadConfig({ QUIRE_SECRET_KEY: 'password' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUIRE_SECRET_KEY_PREVIOUS: key })).toThrow(/needs QUIRE_SECRET_KEY/);
    expect(
      loadConfig({ QUIRE_SECRET_KEY: key, QUIRE_SECRET_KEY_PREVIOUS: `${newSecretKey()}, ${'cd'.repeat(32)}` }).previousSecretKeys,
    ).toHaveLength(2);
  });
});
