import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The keyring for secrets kept at rest (authenticator secrets, recovery codes, device cookies).
 * Keys come from `SECRET_KEYS` as `id:base64key` pairs, newest first: the first encrypts and signs,
 * every one still decrypts and verifies. A key is rotated by putting a new one in front; values are
 * sealed again under it the next time they are used, and recovery codes when they are next made, so
 * the old key is dropped once those have moved. Values name the key they were made with.
 */
export interface Keyring {
  /** AES-256-GCM under the newest key. */
  encrypt(plain: string): string;
  /** Opens a value made by `encrypt` under any key of the ring; throws on tampering. */
  decrypt(sealed: string): string;
  /** Whether a sealed value was made under an older key (re-encrypt it on the next write). */
  isStale(sealed: string): boolean;
  /** A keyed hash (HMAC-SHA256) under the newest key, tagged with its key id. */
  mac(purpose: string, value: string): string;
  /** Whether `tagged` is `mac(purpose, value)` under any key of the ring (constant time). */
  verifyMac(purpose: string, value: string, tagged: string): boolean;
}

interface Key {
  id: string;
  enc: Buffer;
  mac: Buffer;
}

const derive = (root: Buffer, info: string) => Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), info, 32));

export class KeyringError extends Error {}

/** `id:base64` pairs separated by commas; each key must be 32 bytes. */
export function parseSecretKeys(spec: string): Key[] {
  const keys = spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [id, b64, ...rest] = part.split(':');
      if (!id || !b64 || rest.length || !/^[A-Za-z0-9_-]{1,16}$/.test(id)) throw new KeyringError('SECRET_KEYS: each entry is id:base64key (id of 1-16 letters, digits, - or _)');
      const root = Buffer.from(b64, 'base64');
      if (root.length !== 32) throw new KeyringError(`SECRET_KEYS: key "${id}" must be 32 bytes (44 base64 characters)`);
      return { id, enc: derive(root, 'beacon/encrypt'), mac: derive(root, 'beacon/mac') };
    });
  if (!keys.length) throw new KeyringError('SECRET_KEYS: no key given');
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new KeyringError('SECRET_KEYS: key ids must differ');
  return keys;
}

export function newSecretKeySpec(id = 'k1'): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}

export function createKeyring(spec: string): Keyring {
  const keys = parseSecretKeys(spec);
  const newest = keys[0] as Key;
  const byId = new Map(keys.map((k) => [k.id, k]));
  const macWith = (key: Key, purpose: string, value: string) => createHmac('sha256', key.mac).update(`${purpose}\0${value}`).digest('base64url');

  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', newest.enc, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', newest.id, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [version, id, iv, body, tag] = sealed.split('.');
      const key = id ? byId.get(id) : undefined;
      if (version !== 'v1' || !key || !iv || body === undefined || !tag) throw new KeyringError('sealed value with an unknown key or format');
      const decipher = createDecipheriv('aes-256-gcm', key.enc, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    isStale(sealed) {
      return sealed.split('.')[1] !== newest.id;
    },
    mac(purpose, value) {
      return `${newest.id}.${macWith(newest, purpose, value)}`;
    },
    verifyMac(purpose, value, tagged) {
      const [id, digest] = tagged.split('.');
      const key = id ? byId.get(id) : undefined;
      if (!key || !digest) return false;
      const a = Buffer.from(digest, 'base64url');
      const b = Buffer.from(macWith(key, purpose, value), 'base64url');
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}

/**
 * The keys to use when `SECRET_KEYS` is unset, so the zero-setup start works: an in-memory database
 * gets a throw-away key; otherwise one is made once and kept in `DATA_DIR/secret-keys` (mode 0600).
 * Production sets `SECRET_KEYS` so the key does not sit beside the data it protects.
 */
export function defaultSecretKeys(dataDir: string, databaseUrl: string | undefined): { spec: string; source: 'memory' | 'file' } {
  if (databaseUrl === 'memory://') return { spec: newSecretKeySpec(), source: 'memory' };
  const file = join(dataDir, 'secret-keys');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `${newSecretKeySpec()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process starting at the same moment wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  chmodSync(file, 0o600);
  return { spec: readFileSync(file, 'utf8').trim(), source: 'file' };
}
