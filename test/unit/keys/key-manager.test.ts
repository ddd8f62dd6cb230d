import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { calculateJwkThumbprint, compactVerify, createLocalJWKSet } from 'jose';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import type { Store } from '../../../adapters/store.js';
import { ManualClock } from '../../../src/clock.js';
import { jwksDocument, providerSigningKeys } from '../../../src/keys/jwks.js';
import { encryptPrivateKey } from '../../../src/keys/key-crypto.js';
import { KeyManager } from '../../../src/keys/key-manager.js';
import { selfSignedCertificate } from '../../../src/keys/certificate.js';
import { certificateWindow } from '../../../src/keys/policy.js';
import { rsaPrimeCount } from '../../../src/keys/rsa-key-pair.js';
import { pooledKeyPair, resetKeyPool } from '../../helpers/test-keys.js';

const ISSUER = 'https://idp.example-district.org:8443/lanyard';
const HOST = 'idp.example-district.org';
const unreadable = { name: 'LanyardError', code: 'key_unreadable' };

/** A real SQLite store in a temp dir, a ManualClock, and a KeyManager using pooled real RSA-4096 pairs. */
function setup(t: Test, start: string) {
  resetKeyPool(); // each test starts at the head of the on-disk pool: no fresh RSA-4096 generation
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-keys-'));
  const path = join(dir, 'lanyard.db');
  const clock = new ManualClock(new Date(start));
  const kek = randomBytes(32);
  const stores: Store[] = [];
  const open = () => {
    const s = openSqliteStore(path, clock);
    stores.push(s);
    return s;
  };
  t.teardown(async () => {
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let generated = 0;
  const manager = (store: Store, keyEncryptionKey = kek) =>
    new KeyManager({
      store, clock, keyEncryptionKey, issuer: ISSUER,
      generateKeyPair: () => { generated += 1; return pooledKeyPair(); },
    });
  return { path, clock, kek, open, manager, generated: () => generated };
}

const der = (cert: string) => Buffer.from(cert, 'base64');

t.test('cold start: exactly one key, for the current month, with a proper certificate', async (t) => {
  const { clock, open, manager, generated } = setup(t, '2027-01-15T12:00:00.000Z');
  const store = open();
  const keys = manager(store);
  const set = await keys.current();

  const stored = await store.listKeys();
  t.equal(stored.length, 1, 'one key stored');
  t.equal(generated(), 1, 'one key pair generated');
  const [key] = stored;
  t.equal(key!.month, '2027-01', 'for the current month');
  t.equal(set.signing.kid, key!.kid, 'it signs');
  t.same(set.published.map((k) => k.kid), [key!.kid], 'and is the only one published (no previous month yet)');
  t.equal(key!.createdAt, clock.now().toISOString(), 'createdAt from the clock');
  t.match(key!.encryptedPrivateKey, /^v1\./, 'private key stored encrypted');
  t.notMatch(key!.encryptedPrivateKey, /PRIVATE KEY/, 'never as plaintext PEM');

  const window = certificateWindow('2027-01');
  t.equal(key!.notBefore, '2027-01-01T00:00:00.000Z', 'notBefore: the 1st, 00:00:00');
  t.equal(key!.notAfter, '2027-02-28T23:59:59.000Z', 'notAfter: last second of the following month');
  t.same([set.signing.notBefore, set.signing.notAfter], [window.notBefore, window.notAfter], 'ActiveKey window');

  const cert = new X509Certificate(der(key!.certificate));
  t.equal(cert.publicKey.asymmetricKeyType, 'rsa', 'RSA');
  t.equal(cert.publicKey.asymmetricKeyDetails?.modulusLength, 4096, 'SPEC: RSA-4096');
  t.equal(cert.publicKey.asymmetricKeyDetails?.publicExponent, 65537n, 'e = 65537');
  const certJwk = cert.publicKey.export({ format: 'jwk' });
  t.equal(certJwk.n, set.signing.publicJwk.n, 'certificate modulus = the key\'s n');
  t.equal(certJwk.e, set.signing.publicJwk.e, 'certificate exponent = the key\'s e');
  t.ok(cert.checkPrivateKey(set.signing.privateKey), 'matches the private key');
  t.equal(rsaPrimeCount(set.signing.privateKey), 4, 'read back from the store with its four primes (not through a JWK, which drops two)');
  t.equal(cert.validFromDate.toISOString(), window.notBefore.toISOString(), 'certificate validFrom per the policy');
  t.equal(cert.validToDate.toISOString(), window.notAfter.toISOString(), 'certificate validTo per the policy');
  t.match(cert.subject, new RegExp(`^CN=${HOST.replace(/\./g, '\\.')}$`, 'm'), 'subject CN = issuer host (no port, no path)');
  t.equal(cert.issuer, cert.subject, 'self-signed: issuer = subject');
  t.ok(cert.verify(cert.publicKey), 'signed by its own key');
  t.equal(cert.ca, false, 'not a CA certificate');

  t.equal(key!.kid, await calculateJwkThumbprint({ kty: 'RSA', n: certJwk.n!, e: certJwk.e! }, 'sha256'), 'kid = RFC 7638 thumbprint');

  const again = await keys.current();
  t.equal(again.signing.kid, key!.kid, 'a second call: the same key');
  t.equal((await store.listKeys()).length, 1, 'still one key stored');
  t.equal(generated(), 1, 'no second key pair generated');
});

t.test('rotation: at 00:00:00.000 UTC on the 1st, the new key signs and the previous one stays published', async (t) => {
  const { clock, open, manager } = setup(t, '2026-12-31T23:59:59.999Z');
  const store = open();
  const keys = manager(store);
  const december = (await keys.current()).signing;
  t.equal(december.month, '2026-12', 'December key at the last millisecond of December');

  clock.set(new Date('2027-01-01T00:00:00.000Z'));
  const jan = await keys.current();
  t.equal(jan.signing.month, '2027-01', 'January key signs from the first millisecond of the year');
  t.not(jan.signing.kid, december.kid, 'a new key');
  t.same(jan.published.map((k) => k.kid), [jan.signing.kid, december.kid], 'published: [new, previous]');

  clock.set(new Date('2027-02-14T08:00:00.000Z'));
  const feb = await keys.current();
  t.same(feb.published.map((k) => k.month), ['2027-02', '2027-01'], 'a month later: [February, January]');
  t.notOk(feb.published.some((k) => k.kid === december.kid), 'two months later the oldest is no longer published');
  t.equal(feb.published.length, 2, 'SPEC: at most two');
  t.same((await store.listKeys()).map((k) => k.month), ['2026-12', '2027-01', '2027-02'], 'one key per month stored');
  t.equal(new Set((await store.listKeys()).map((k) => k.kid)).size, 3, 'three distinct kids');
});

t.test('a gap: after a month without a key only the current key is published', async (t) => {
  const { clock, open, manager } = setup(t, '2027-01-10T00:00:00.000Z');
  const keys = manager(open());
  await keys.current();
  clock.set(new Date('2027-03-10T00:00:00.000Z'));
  const set = await keys.current();
  t.same(set.published.map((k) => k.month), ['2027-03'], 'February never had a key; January is too old');
});

t.test('restart: the same store and KEK give the same key, nothing generated', async (t) => {
  const { open, manager, generated } = setup(t, '2027-01-15T12:00:00.000Z');
  const first = open();
  const kid = (await manager(first).current()).signing.kid;
  await first.close();
  const set = await manager(open()).current();
  t.equal(set.signing.kid, kid, 'same signing kid after reopening');
  t.equal(generated(), 1, 'no new key pair');
});

t.test('two instances on one store agree on one key per month', async (t) => {
  const { open, manager } = setup(t, '2027-01-15T12:00:00.000Z');
  const a = manager(open());
  const b = manager(open());
  const [setA, setB] = await Promise.all([a.current(), b.current()]);
  t.equal(setA.signing.kid, setB.signing.kid, 'both sign with the same key');
  t.equal((await open().listKeys()).length, 1, 'one key stored');
});

t.test('unreadable stored keys → key_unreadable', async (t) => {
  const { path, open, manager, kek } = setup(t, '2027-01-15T12:00:00.000Z');
  const store = open();
  const { kid } = (await manager(store).current()).signing;
  await store.close();

  await t.rejects(manager(open(), randomBytes(32)).current(), unreadable, 'a wrong key-encryption key');

  const db = new Database(path);
  t.teardown(() => db.close());
  const original = (db.prepare('SELECT encrypted_private_key AS v FROM signing_keys').get() as { v: string }).v;
  const parts = original.split('.');
  const body = Buffer.from(parts[3]!, 'base64url');
  body[10] = body[10]! ^ 0xff;
  db.prepare('UPDATE signing_keys SET encrypted_private_key = ?').run([...parts.slice(0, 3), body.toString('base64url')].join('.'));
  await t.rejects(manager(open(), kek).current(), unreadable, 'a tampered encryptedPrivateKey');

  // Properly encrypted under this kid with the right KEK, but another key: the kid check catches it.
  const other = await pooledKeyPair();
  db.prepare('UPDATE signing_keys SET encrypted_private_key = ?').run(encryptPrivateKey(kek, kid, other.privateKeyPem));
  await t.rejects(manager(open(), kek).current(), { ...unreadable, message: /does not match its kid/ }, 'a substituted private key');

  db.prepare('UPDATE signing_keys SET encrypted_private_key = ?').run(original);
  t.equal((await manager(open(), kek).current()).signing.kid, kid, 'the untouched record reads again (control)');

  // The certificate (stored in the clear) swapped for one of another key: caught before it is published.
  const certificate = (db.prepare('SELECT certificate AS v FROM signing_keys').get() as { v: string }).v;
  const foreign = await selfSignedCertificate(await pooledKeyPair(), 'attacker.example', new Date('2027-01-01T00:00:00Z'), new Date('2027-02-28T23:59:59Z'));
  db.prepare('UPDATE signing_keys SET certificate = ?').run(foreign);
  await t.rejects(manager(open(), kek).current(), { ...unreadable, message: /certificate does not carry this key/ }, 'a substituted certificate');
  db.prepare('UPDATE signing_keys SET certificate = ?').run('not a certificate');
  await t.rejects(manager(open(), kek).current(), unreadable, 'a garbled certificate');
  db.prepare('UPDATE signing_keys SET certificate = ?').run(certificate);
  t.equal((await manager(open(), kek).current()).signing.kid, kid, 'the original certificate reads again (control)');
});

t.test('jwks: the public key set (SPEC: Resources → Key set)', async (t) => {
  const { clock, open, manager } = setup(t, '2027-01-20T00:00:00.000Z');
  const keys = manager(open());
  await keys.current();
  clock.set(new Date('2027-02-02T00:00:00.000Z'));
  const set = await keys.current();
  const doc = jwksDocument(set.published);

  t.equal(doc.keys.length, 2, 'current and previous');
  t.same(doc.keys.map((k) => k.kid), set.published.map((k) => k.kid), 'same order as published');
  for (const [i, k] of doc.keys.entries()) {
    const active = set.published[i]!;
    const cert = der(active.certificate);
    t.same(Object.keys(k).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use', 'x5c', 'x5t', 'x5t#S256'], `${i}: exactly the listed fields`);
    t.same([k.kty, k.use, k.alg], ['RSA', 'sig', 'RS256'], `${i}: kty RSA, use sig, alg RS256`);
    t.same(k.x5c, [active.certificate], `${i}: x5c = [base64 DER certificate]`);
    t.equal(k.x5t, createHash('sha1').update(cert).digest('base64url'), `${i}: x5t = base64url SHA-1 of the DER`);
    t.equal(k['x5t#S256'], createHash('sha256').update(cert).digest('base64url'), `${i}: x5t#S256 = base64url SHA-256 of the DER`);
    t.match(k.x5t, /^[A-Za-z0-9_-]{27}$/, `${i}: x5t is base64url without padding`);
    const certJwk = new X509Certificate(cert).publicKey.export({ format: 'jwk' });
    t.same([k.n, k.e], [certJwk.n, certJwk.e], `${i}: n and e are the certificate's`);
  }
  t.notMatch(JSON.stringify(doc), /"(d|p|q|dp|dq|qi)"/, 'no private key member anywhere');

  // The provider's signing keys: the signing key first; what it signs, under the header SPEC.md requires in
  // place of the library's, verifies against the public set.
  const signers = providerSigningKeys(set.published);
  t.equal(signers[0]?.kid, set.signing.kid, 'provider signs with the current key (first)');
  t.ok(signers.every((k) => k.alg === 'RS256' && k.use === 'sig' && k.kty === 'RSA'), 'RS256 signing keys');
  const key = signers[0]!;
  const payload = Buffer.from('hello').toString('base64url');
  const signature = Buffer.from(await key.sign(Buffer.from(`${key.libraryHeader}.${payload}`))).toString('base64url');
  const jws = key.withTypedHeader(`${key.libraryHeader}.${payload}.${signature}`);
  const verified = await compactVerify(jws, createLocalJWKSet(doc as Parameters<typeof createLocalJWKSet>[0]));
  t.same(verified.protectedHeader, { alg: 'RS256', typ: 'JWT', kid: set.signing.kid }, 'the header SPEC.md requires was signed');
  t.equal(new TextDecoder().decode(verified.payload), 'hello', 'a signature by the signing key verifies with the key set');
});
