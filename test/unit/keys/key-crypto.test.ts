import { randomBytes } from 'node:crypto';
import t from 'tap';
import { LanyardError } from '../../../src/errors.js';
import { decryptPrivateKey, encryptPrivateKey } from '../../../src/keys/key-crypto.js';

const KEK = randomBytes(32);
const KID = 'kid-2027-01';
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIJQgIBADANBgkqhkiG9w0BAQEFAASCCSwwggkoAgEAAoICAQ==\n-----END PRIVATE KEY-----\n';

/** Rebuilds a sealed value with one part changed. */
function withPart(sealed: string, index: number, change: (b: Buffer) => Buffer): string {
  const parts = sealed.split('.');
  parts[index] = change(Buffer.from(parts[index]!, 'base64url')).toString('base64url');
  return parts.join('.');
}
const flipFirstBit = (b: Buffer) => {
  const c = Buffer.from(b);
  c[0] = c[0]! ^ 0x01;
  return c;
};

const unreadable = { name: 'LanyardError', code: 'key_unreadable' };

t.test('round trip', async (t) => {
  const sealed = encryptPrivateKey(KEK, KID, PEM);
  t.match(sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/, 'v1.<iv>.<tag>.<ciphertext>, base64url');
  t.notMatch(sealed, /PRIVATE KEY/, 'no plaintext in the sealed form');
  t.equal(decryptPrivateKey(KEK, KID, sealed), PEM, 'decrypts to the same PEM');
  t.not(encryptPrivateKey(KEK, KID, PEM), sealed, 'a fresh IV each time');
  const [, iv, tag] = sealed.split('.');
  t.equal(Buffer.from(iv!, 'base64url').length, 12, '96-bit IV');
  t.equal(Buffer.from(tag!, 'base64url').length, 16, '128-bit tag');
});

t.test('a wrong key-encryption key → key_unreadable', async (t) => {
  const sealed = encryptPrivateKey(KEK, KID, PEM);
  t.throws(() => decryptPrivateKey(randomBytes(32), KID, sealed), unreadable);
  const err = (() => {
    try {
      decryptPrivateKey(randomBytes(32), KID, sealed);
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  t.ok(err instanceof LanyardError, 'a LanyardError');
  t.match((err as Error).message, KID, 'naming the kid');
  t.notMatch((err as Error).message, /PRIVATE KEY/, 'never carrying key material');
});

t.test('tampering → key_unreadable', async (t) => {
  const sealed = encryptPrivateKey(KEK, KID, PEM);
  t.throws(() => decryptPrivateKey(KEK, KID, withPart(sealed, 3, flipFirstBit)), unreadable, 'ciphertext bit flipped');
  t.throws(() => decryptPrivateKey(KEK, KID, withPart(sealed, 3, (b) => b.subarray(1))), unreadable, 'ciphertext shortened');
  t.throws(() => decryptPrivateKey(KEK, KID, withPart(sealed, 2, flipFirstBit)), unreadable, 'tag bit flipped');
  t.throws(() => decryptPrivateKey(KEK, KID, withPart(sealed, 1, flipFirstBit)), unreadable, 'IV bit flipped');
  t.throws(() => decryptPrivateKey(KEK, 'kid-2027-02', sealed), unreadable, 'another kid: the AAD does not match');
  t.throws(() => decryptPrivateKey(KEK, KID, withPart(sealed, 1, () => Buffer.alloc(0))), unreadable, 'empty IV');
  t.throws(() => decryptPrivateKey(KEK, KID, withPart(sealed, 2, () => Buffer.alloc(0))), unreadable, 'empty tag');
});

t.test('a truncated tag → key_unreadable (GCM would otherwise accept a 4-byte tag prefix)', async (t) => {
  const sealed = encryptPrivateKey(KEK, KID, PEM);
  for (const length of [4, 8, 12, 15]) {
    t.throws(
      () => decryptPrivateKey(KEK, KID, withPart(sealed, 2, (b) => b.subarray(0, length))),
      unreadable,
      `${length}-byte prefix of the real tag`,
    );
  }
});

t.test('a swapped record → key_unreadable: one kid\'s sealed key under another kid', async (t) => {
  const a = encryptPrivateKey(KEK, 'kid-a', PEM);
  t.throws(() => decryptPrivateKey(KEK, 'kid-b', a), unreadable);
});

t.test('an unknown format → key_unreadable', async (t) => {
  const sealed = encryptPrivateKey(KEK, KID, PEM);
  t.throws(() => decryptPrivateKey(KEK, KID, sealed.replace(/^v1\./, 'v2.')), unreadable, 'unknown version');
  t.throws(() => decryptPrivateKey(KEK, KID, sealed.split('.').slice(0, 3).join('.')), unreadable, 'a part missing');
  t.throws(() => decryptPrivateKey(KEK, KID, `${sealed}.extra`), unreadable, 'a part too many');
  t.throws(() => decryptPrivateKey(KEK, KID, PEM), unreadable, 'a plaintext PEM');
  t.throws(() => decryptPrivateKey(KEK, KID, ''), unreadable, 'empty');
});
