/**
 * The machine's limits for the two costs that bound an identity provider, measured in a process of its own
 * (so nothing else shares its thread pool) and printed as one JSON line:
 *  - RSA-4096 RS256 signatures per second on all cores: node:crypto's callback `sign` runs on libuv's pool,
 *    whose size the parent sets to at least the number of cores (UV_THREADPOOL_SIZE), kept full with
 *    twice as many signatures in flight as cores, over a realistic ID token's signing input (~700 bytes).
 *    Twice: with a key like Lanyard's (four primes, src/keys/rsa-key-pair.ts), and with the usual
 *    two-prime key, which bare oidc-provider signs with (given as a JWK: Node exports no `oth`);
 *  - argon2id verifications per second with Lanyard's parameters (ARGON2_OPTIONS), one at a time, and at the
 *    concurrency Lanyard allows itself.
 *
 * With `argon2` after them, only the second at the concurrency given: the sign-in scenario measures it just
 * before and just after its timed phase (scenarios/sign-in.ts), so that its ratio compares figures taken
 * within seconds of each other.
 *
 *   node --import tsx bench/machine-limits.ts SECONDS ARGON2_CONCURRENCY [argon2]
 */
import { availableParallelism } from 'node:os';
import { createPrivateKey, generateKeyPair, type KeyObject, sign } from 'node:crypto';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import argon2 from 'argon2';
import { ARGON2_OPTIONS } from '../src/accounts/credential-hasher.js';
import { generateRsa4096 } from '../src/keys/rsa-key-pair.js';
import { msPerOp, ownCpuMs } from './cpu.js';
import { runLoad } from './load.js';

export interface MachineLimits {
  /** With a key like Lanyard's: four primes. */
  rsaSignaturesPerSecond: number;
  /** With the usual two-prime key, bare oidc-provider's. */
  rsaTwoPrimeSignaturesPerSecond: number;
  /**
   * The CPU one signature cost while the cores were full of them (ms, every thread of this process, the
   * callback's dispatch included): what a server spends on its signature, as `cpuMsPerOp` counts it. Not
   * cores × 1000 ÷ the rate: a saturated VM's cores give less than a second of CPU per second (SMT, steal).
   */
  rsaSignatureCpuMs: number;
  rsaTwoPrimeSignatureCpuMs: number;
  rsaConcurrency: number;
  argon2VerifyOneThread: number;
  argon2Concurrency: number;
  argon2VerifyAtConcurrency: number;
  signingInputBytes: number;
}

/** header.payload of an ID token as Lanyard issues one (base64url JSON), the bytes RS256 signs. */
function idTokenSigningInput(): Buffer {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const issuer = 'https://id.example-district.org';
  const header = { alg: 'RS256', typ: 'JWT', kid: 'k-2026-01-3f9a2c1d7e5b4a60' };
  const payload = {
    sub: 'u482019375610284', email: 'ada.lovelace@hillside.example', given_name: 'Ada', family_name: 'Lovelace',
    type: 'student', [`${issuer}/claims/roster_id`]: 'ros-8842-11', nonce: 'n-V1StGXR8_Z5jdHi6B-myT-bench',
    at_hash: 'fTyWb0d7Jm7zE8ZkTqBVqA', sid: '2c7d9f0e-0a3b-4e5f-8c6d-1e2f3a4b5c6d', auth_time: now - 20,
    iat: now, exp: now + 3600, aud: 'reading-app', iss: issuer,
  };
  return Buffer.from(`${b64(header)}.${b64(payload)}`);
}

/**
 * Keeps `inFlight` operations running for `seconds` (after a short warm-up): operations per second, and
 * this process's CPU per operation (ms, every thread) over the same window.
 */
async function measure(inFlight: number, seconds: number, op: () => Promise<unknown>): Promise<{ rate: number; cpuMsPerOp: number }> {
  await runLoad({ concurrency: inFlight, maxSeconds: Math.min(0.3, seconds * 0.2), run: op }); // warm-up
  const before = process.cpuUsage();
  const f = await runLoad({ concurrency: inFlight, maxSeconds: seconds, run: op });
  const cpuMs = ownCpuMs(before);
  if (Object.keys(f.errors).length) throw new Error(`measuring failed: ${JSON.stringify(f.errors)}`);
  return { rate: f.rate, cpuMsPerOp: msPerOp(cpuMs, f.ok) };
}

const rate = async (inFlight: number, seconds: number, op: () => Promise<unknown>): Promise<number> =>
  (await measure(inFlight, seconds, op)).rate;

const signOnce = (key: KeyObject, data: Buffer) => new Promise<Buffer>((resolve, reject) =>
  sign('sha256', data, key, (err, sig) => (err ? reject(err) : resolve(sig))));

/** A verification with Lanyard's parameters, as a sign-in makes one. */
async function argon2Verifier(): Promise<() => Promise<boolean>> {
  const hash = await argon2.hash('bench-password-0123456789', ARGON2_OPTIONS);
  return () => argon2.verify(hash, 'bench-password-0123456789');
}

async function measureLimits(seconds: number, argon2Concurrency: number): Promise<MachineLimits> {
  const lanyardKey = createPrivateKey((await generateRsa4096()).privateKeyPem);
  const { privateKey: twoPrimeKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 4096 });
  const data = idTokenSigningInput();
  const rsaConcurrency = 2 * availableParallelism();
  const fourPrime = await measure(rsaConcurrency, seconds, () => signOnce(lanyardKey, data));
  const twoPrime = await measure(rsaConcurrency, seconds, () => signOnce(twoPrimeKey, data));

  const verify = await argon2Verifier();
  const argon2VerifyOneThread = await rate(1, seconds, verify);
  // At a concurrency of 1 it is the same measurement: not repeated.
  const argon2VerifyAtConcurrency = argon2Concurrency === 1 ? argon2VerifyOneThread : await rate(argon2Concurrency, seconds, verify);
  return {
    rsaSignaturesPerSecond: fourPrime.rate, rsaTwoPrimeSignaturesPerSecond: twoPrime.rate,
    rsaSignatureCpuMs: fourPrime.cpuMsPerOp, rsaTwoPrimeSignatureCpuMs: twoPrime.cpuMsPerOp,
    rsaConcurrency, argon2VerifyOneThread, argon2Concurrency, argon2VerifyAtConcurrency, signingInputBytes: data.length };
}

/** The argon2 rate now, and the CPU this process used (ms, every thread, start-up included). */
export type Argon2Now = Pick<MachineLimits, 'argon2VerifyAtConcurrency'> & { cpuMs: number };

async function measureArgon2(seconds: number, argon2Concurrency: number): Promise<Argon2Now> {
  const argon2VerifyAtConcurrency = await rate(argon2Concurrency, seconds, await argon2Verifier());
  return { argon2VerifyAtConcurrency, cpuMs: Math.round(ownCpuMs()) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [seconds = '3', concurrency = '1', only] = process.argv.slice(2);
  const measure = only === 'argon2' ? measureArgon2 : measureLimits;
  measure(Number(seconds), Number(concurrency)).then(
    (limits) => { process.stdout.write(`${JSON.stringify(limits)}\n`); },
    (err: unknown) => { console.error(err); process.exit(1); },
  );
}
