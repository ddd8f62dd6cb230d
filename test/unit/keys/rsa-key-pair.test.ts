import { execFileSync } from 'node:child_process';
import { checkPrimeSync, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { RSAPrivateKey } from '@peculiar/asn1-rsa';
import t from 'tap';
import { generateRsa4096, rsaPrimeCount } from '../../../src/keys/rsa-key-pair.js';

const int = (b: ArrayBuffer): bigint => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);
const bits = (n: bigint) => n.toString(2).length;
const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;

t.test('a fresh signing key: RSA-4096 of four 1024-bit primes, e = 65537, consistent in every part', async (t) => {
  const pair = await generateRsa4096();
  const key = createPrivateKey(pair.privateKeyPem);
  t.same(key.asymmetricKeyDetails, { modulusLength: 4096, publicExponent: 65537n }, '4096-bit modulus, e = 65537');
  t.equal(rsaPrimeCount(key), 4, 'four primes survive PKCS#8 PEM → OpenSSL → PKCS#1');
  t.same(createPublicKey(pair.publicKeyPem).export({ format: 'jwk' }), createPublicKey(key).export({ format: 'jwk' }), 'the public PEM is the private key\'s');

  // Checked independently of the generator, from the PKCS#1 structure OpenSSL writes back.
  const k = AsnConvert.parse(key.export({ type: 'pkcs1', format: 'der' }), RSAPrivateKey);
  t.equal(k.version, 1, 'version 1: multi-prime (RFC 8017 A.1.2)');
  const n = int(k.modulus), e = int(k.publicExponent), d = int(k.privateExponent);
  const primes = [int(k.prime1), int(k.prime2), ...(k.otherPrimeInfos ?? []).map((o) => int(o.prime))];
  const exponents = [int(k.exponent1), int(k.exponent2), ...(k.otherPrimeInfos ?? []).map((o) => int(o.exponent))];
  t.equal(primes.length, 4);
  t.equal(new Set(primes).size, 4, 'distinct primes');
  t.ok(primes.every((p) => bits(p) === 1024 && checkPrimeSync(p, { checks: 32 })), 'each a 1024-bit prime');
  t.equal(primes.reduce((a, b) => a * b), n, 'their product is n');
  t.ok(primes.every((p) => mod(e * d, p - 1n) === 1n), 'e·d ≡ 1 modulo each p − 1');
  t.ok(primes.every((p, i) => exponents[i] === mod(d, p - 1n)), 'each CRT exponent is d mod (p − 1)');
  t.equal(mod(int(k.coefficient) * primes[1]!, primes[0]!), 1n, 'coefficient: q · qInv ≡ 1 (mod p)');
  let before = primes[0]! * primes[1]!;
  for (const [i, o] of (k.otherPrimeInfos ?? []).entries()) {
    t.equal(mod(int(o.coefficient) * before, primes[i + 2]!), 1n, `prime ${i + 3}: coefficient · (r₁⋯r${i + 2}) ≡ 1`);
    before *= primes[i + 2]!;
  }

  // OpenSSL's own check (RSA_check_key: every prime, exponent and coefficient) and its reading of the key.
  const pem = Buffer.from(pair.privateKeyPem);
  t.match(execFileSync('openssl', ['pkey', '-check', '-noout'], { input: pem, stdio: ['pipe', 'pipe', 'pipe'] }).toString(), /Key is valid/);
  t.match(execFileSync('openssl', ['rsa', '-noout', '-text'], { input: pem, stdio: ['pipe', 'pipe', 'pipe'] }).toString(), /4096 bit, 4 primes/);

  const data = Buffer.from('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1MSJ9');
  t.ok(verify('sha256', data, createPublicKey(pair.publicKeyPem), sign('sha256', data, key)), 'an RS256 signature verifies with the public key');
});

t.test('moduli look like two-prime ones: top four bits at least 1001 (OpenSSL\'s rule); keys differ', async (t) => {
  // Without the rule about a third of these moduli would start 1000, so eight keys catch its absence 97 times in 100.
  const pairs = await Promise.all(Array.from({ length: 8 }, () => generateRsa4096()));
  const moduli = pairs.map((p) => Buffer.from(createPublicKey(p.publicKeyPem).export({ format: 'jwk' }).n!, 'base64url'));
  t.same(moduli.map((n) => n.length), Array(8).fill(512), 'every modulus 4096 bits');
  t.same(moduli.filter((n) => n[0]! >> 4 < 9).map((n) => n.toString('hex', 0, 2)), [], 'none below 0x9…');
  t.equal(new Set(moduli.map((n) => n.toString('hex'))).size, 8, 'eight different keys');
});

t.test('a usual two-prime key is counted as two', async (t) => {
  t.equal(rsaPrimeCount(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey), 2);
});
