import argon2 from 'argon2';
import { argon2Concurrency } from '../cluster/sizing.js';
import { Limiter } from './limiter.js';

/**
 * argon2id for every user credential (passwords, emoji passwords). Parameters are OWASP's minimum recommendation
 * (m = 19 MiB, t = 2, p = 1). Hashing runs on libuv's pool; the limiter bounds how many run at once in this
 * process (src/cluster/sizing.ts), so that a burst of logins cannot starve token signing.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

let limiter = new Limiter(argon2Concurrency(1));

/** How many hashes this process runs at once: set at startup from the number of worker processes. */
export function setCredentialHashingConcurrency(concurrency: number): void {
  limiter = new Limiter(concurrency);
}
export const credentialHashingConcurrency = (): number => limiter.max;

export function hashCredential(plain: string): Promise<string> {
  return limiter.run(() => argon2.hash(plain, ARGON2_OPTIONS));
}

export async function verifyCredential(hash: string, plain: string): Promise<boolean> {
  return limiter.run(async () => {
    try {
      return await argon2.verify(hash, plain);
    } catch {
      return false;
    }
  });
}

/** Verifying against this when a user does not exist keeps response times from revealing who exists. */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(plain: string): Promise<false> {
  dummyHash ??= argon2.hash('lanyard-dummy-credential', ARGON2_OPTIONS);
  await verifyCredential(await dummyHash, plain);
  return false;
}
