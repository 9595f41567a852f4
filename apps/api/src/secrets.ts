import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SecretBox } from '@app/shared-kernel';

/**
 * Secrets at rest: AES-256-GCM (node:crypto) under a keyring. The newest key seals; every key of the
 * ring opens, chosen by the key id written in the sealed value, so a rotation re-seals row by row while
 * old values still open. Sealed form: `qenc:v1:<key id>:<iv>:<ciphertext + tag>` (base64url).
 *
 * Keys come from `QUIRE_SECRET_KEY` (and `QUIRE_SECRET_KEY_PREVIOUS`, older keys kept for opening during
 * a rotation), or, without it, from a key file in the data dir (`secret.keys`, mode 0600, one base64 key
 * a line, newest last) that the first start generates. See docs/deployment.md ("Secrets at rest").
 */
export const SEALED_PREFIX = 'qenc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretKeyError extends Error {}

/** A 32-byte key written as base64 (44 characters) or hex (64). */
export function parseSecretKey(text: string, name: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, 'base64') : null;
  if (!key || key.length !== KEY_BYTES) throw new SecretKeyError(`${name} must be 32 random bytes, as base64 (44 characters) or hex (64)`);
  return key;
}

export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

export function newSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/** Where the keys come from: fixed (the environment), or a key file read again when it changes. */
export interface Keyring {
  /** Newest last. */
  keys(): Buffer[];
  /** Read the source again (a key id nobody knows: another process may have rotated). */
  refresh(): void;
}

export class FixedKeyring implements Keyring {
  constructor(private readonly all: Buffer[]) {
    if (all.length === 0) throw new SecretKeyError('a keyring needs at least one key');
  }
  keys(): Buffer[] {
    return this.all;
  }
  refresh(): void {}
}

/**
 * The key file of the data dir: created with one generated key on first use (exclusively, so processes
 * starting together agree on it), mode 0600. `rotate` appends a new key, which becomes the current one.
 */
export class KeyFileKeyring implements Keyring {
  private cached: Buffer[] = [];
  private mtimeMs = -1;

  constructor(readonly path: string) {
    this.ensure();
    this.refresh();
  }

  keys(): Buffer[] {
    // A cheap stat: a rotation by the CLI (or another process) is seen on the next seal or open.
    const m = statSync(this.path).mtimeMs;
    if (m !== this.mtimeMs) this.refresh();
    return this.cached;
  }

  refresh(): void {
    const text = readFileSync(this.path, 'utf8');
    const keys = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l, i) => parseSecretKey(l, `${this.path} line ${i + 1}`));
    if (keys.length === 0) throw new SecretKeyError(`${this.path} holds no key`);
    this.cached = keys;
    this.mtimeMs = statSync(this.path).mtimeMs;
  }

  /** Adds a new key as the current one; the older keys stay to open what is still sealed under them. */
  rotate(): Buffer {
    const line = newSecretKey();
    writeFileSync(this.path, `${line}\n`, { flag: 'a', mode: 0o600 });
    this.refresh();
    return this.cached[this.cached.length - 1];
  }

  private ensure(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    try {
      writeFileSync(
        this.path,
        `# Quire's keys for secrets at rest (AES-256-GCM), newest last. Keep this file with the database backups.\n${newSecretKey()}\n`,
        {
          flag: 'wx',
          mode: 0o600,
        },
      );
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
    }
    chmodSync(this.path, 0o600);
  }
}

export class AesGcmSecretBox extends SecretBox {
  constructor(private readonly ring: Keyring) {
    super();
  }

  seal(plain: string): string {
    const key = this.current();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}${keyId(key)}:${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  open(stored: string): string {
    if (!stored.startsWith(SEALED_PREFIX)) return stored;
    const [id, iv, body] = stored.slice(SEALED_PREFIX.length).split(':');
    const key = this.find(id);
    if (!key) throw new SecretKeyError(`a secret is sealed under key ${id}, which is not in the keyring (QUIRE_SECRET_KEY_PREVIOUS?)`);
    const bytes = Buffer.from(body ?? '', 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  isSealed(stored: string): boolean {
    return stored.startsWith(SEALED_PREFIX);
  }

  isCurrent(stored: string): boolean {
    return stored.startsWith(`${SEALED_PREFIX}${keyId(this.current())}:`);
  }

  private current(): Buffer {
    const keys = this.ring.keys();
    return keys[keys.length - 1];
  }

  private find(id: string): Buffer | undefined {
    const match = () => this.ring.keys().find((k) => keyId(k) === id);
    const found = match();
    if (found) return found;
    this.ring.refresh();
    return match();
  }
}

/** The keyring the configuration names: the environment's keys, else the data dir's key file. */
export function keyringFor(config: { secretKey: Buffer | null; previousSecretKeys: Buffer[]; dataDir: string }): Keyring {
  return config.secretKey
    ? new FixedKeyring([...config.previousSecretKeys, config.secretKey])
    : new KeyFileKeyring(keyFilePath(config.dataDir));
}

export function keyFilePath(dataDir: string): string {
  return join(dataDir, 'secret.keys');
}

/**
 * `quire secrets:rotate`: without QUIRE_SECRET_KEY, a new key is added to the data dir's key file and
 * becomes the current one (the older keys stay, to open values sealed meanwhile by processes that had not
 * seen the new key yet); with it, the key it names is the new one. Then every stored secret is sealed
 * again under the current key (`reseal`, e.g. WebhooksService.resealSecrets).
 */
export async function rotateSecrets(
  config: { secretKey: Buffer | null; previousSecretKeys: Buffer[]; dataDir: string },
  reseal: () => Promise<number>,
): Promise<{ keyId: string; resealed: number; newKey: boolean }> {
  const ring = keyringFor(config);
  const newKey = ring instanceof KeyFileKeyring;
  const key = ring instanceof KeyFileKeyring ? ring.rotate() : ring.keys()[ring.keys().length - 1];
  return { keyId: keyId(key), resealed: await reseal(), newKey };
}
