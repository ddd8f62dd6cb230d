import { createPrivateKey, createPublicKey, generatePrime, type KeyObject } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { OtherPrimeInfo, OtherPrimeInfos, RSAPrivateKey } from '@peculiar/asn1-rsa';

/**
 * Lanyard's signing keys: RSA-4096 (SPEC: Authentication 4) made of four 1024-bit primes (RFC 8017 §3.2,
 * multi-prime RSA) rather than two 2048-bit ones.
 *
 * Why: the public key, the signatures and the certificate are those of any RSA-4096 key (a verifier sees
 * only n and e), but signing works modulo each prime, so smaller primes sign faster. With the OpenSSL in
 * Node 24, all cores of the bench's VMs signed 1.1–1.5 times as fast with such a key as with two primes
 * (2,054 against 1,500 /s on one; least where OpenSSL signs two-prime keys with AVX-512 IFMA, which it does
 * not use for more primes: docs/performance.md → Performance, bench/HISTORY.md). Four is the most OpenSSL allows for a
 * 4096-bit modulus (its `ossl_rsa_multip_cap`), whose own multi-prime generator this follows: primes with
 * their top two bits set, and a modulus whose top four bits are at least 1001, so that the modulus does
 * not give away that the key has more than two primes. Node cannot ask OpenSSL for such a key, so the
 * primes come from OpenSSL (node:crypto generatePrime: its private DRBG, Miller–Rabin) and the rest of the
 * key is computed here and read back by OpenSSL.
 *
 * That arithmetic is BigInt's, on secret primes and not in constant time. It runs about once a month, for
 * a few milliseconds, when the next key is prepared; a timing attack on it would need code on the same
 * machine at that moment. Not FIPS 186: that standard allows two primes only.
 */
export interface KeyPairPem {
  privateKeyPem: string;
  publicKeyPem: string;
}

const RSA_BITS = 4096;
const RSA_PRIMES = 4;
const PRIME_BITS = RSA_BITS / RSA_PRIMES;
const E = 65537n;
/** About five primes per key on average, rarely over twenty (the product is short: the smallest is replaced). */
const MAX_TRIES = 256;
/** n ≥ 9 · 2^4092: top four bits at least 1001, as OpenSSL requires of a multi-prime modulus (rsa_gen.c). */
const LEAST_TOP_NIBBLE = 9n;

const newPrime = (): Promise<bigint> => new Promise((resolve, reject) => {
  generatePrime(PRIME_BITS, { bigint: true }, (err, prime) => (err ? reject(err) : resolve(prime)));
});

/** A fraction of a second, the primes on libuv's pool (generatePrime), a few ms on the event loop; never on a request path. */
export async function generateRsa4096(): Promise<KeyPairPem> {
  const primes: bigint[] = [];
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const p = await newPrime();
    if ((p - 1n) % E === 0n || primes.includes(p)) continue; // e must be invertible modulo p − 1
    primes.push(p);
    if (primes.length < RSA_PRIMES) continue;
    const n = primes.reduce((a, b) => a * b);
    if (n >> BigInt(RSA_BITS - 4) >= LEAST_TOP_NIBBLE) return keyPairFromPrimes(primes, n);
    primes.sort((a, b) => (a < b ? -1 : 1)).shift(); // the product is short: replace the smallest prime
  }
  throw new Error(`no ${RSA_BITS}-bit product of ${RSA_PRIMES} primes after ${MAX_TRIES} primes`);
}

/** The PKCS#1 key (version 1, with otherPrimeInfos) for these primes and their product n, read back by OpenSSL. */
function keyPairFromPrimes(primes: bigint[], n: bigint): KeyPairPem {
  const d = modInverse(E, primes.map((p) => p - 1n).reduce(lcm));
  const [p, q, ...others] = primes as [bigint, bigint, ...bigint[]];
  let product = p * q;
  const otherPrimeInfos = others.map((r) => {
    const info = new OtherPrimeInfo({ prime: der(r), exponent: der(d % (r - 1n)), coefficient: der(modInverse(product % r, r)) });
    product *= r;
    return info;
  });
  const pkcs1 = AsnConvert.serialize(new RSAPrivateKey({
    version: 1, // multi-prime
    modulus: der(n),
    publicExponent: der(E),
    privateExponent: der(d),
    prime1: der(p),
    prime2: der(q),
    exponent1: der(d % (p - 1n)),
    exponent2: der(d % (q - 1n)),
    coefficient: der(modInverse(q, p)),
    otherPrimeInfos: new OtherPrimeInfos(otherPrimeInfos),
  }));
  const key = createPrivateKey({ key: Buffer.from(pkcs1), format: 'der', type: 'pkcs1' });
  return {
    privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicKeyPem: createPublicKey(key).export({ type: 'spki', format: 'pem' }) as string,
  };
}

/** How many primes an RSA private key is made of (2 for the usual keys). */
export function rsaPrimeCount(key: KeyObject): number {
  const parsed = AsnConvert.parse(key.export({ type: 'pkcs1', format: 'der' }), RSAPrivateKey);
  return 2 + (parsed.otherPrimeInfos?.length ?? 0);
}

/** A non-negative integer as DER INTEGER content: big-endian, with a leading zero when the top bit is set. */
function der(value: bigint): ArrayBuffer {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (parseInt(hex.slice(0, 2), 16) & 0x80) hex = `00${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
const lcm = (a: bigint, b: bigint): bigint => (a / gcd(a, b)) * b;

/** a⁻¹ mod m (extended Euclid); throws when there is none. */
function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [((a % m) + m) % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const quotient = oldR / r;
    [oldR, r] = [r, oldR - quotient * r];
    [oldS, s] = [s, oldS - quotient * s];
  }
  if (oldR !== 1n) throw new Error('not invertible');
  return ((oldS % m) + m) % m;
}
