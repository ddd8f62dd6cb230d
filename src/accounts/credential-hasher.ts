import argon2 from 'argon2';
import { argon2Slots } from '../process/sizing.js';
import { Limiter, type Slots, type WaitOptions } from './limiter.js';

/**
 * argon2id for every user credential (passwords, emoji passwords). Parameters are OWASP's minimum recommendation
 * (m = 19 MiB, t = 2, p = 1). Hashing runs on libuv's pool, at most so many at once on the machine
 * (src/process/sizing.ts), so that a burst of logins cannot starve token signing: a Limiter here, or, in a
 * worker, the primary's, which hashes for every worker (src/cluster/hashing-broker.ts).
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * The longest a sign-in waits for a slot. Past it the machine is saturated: the person is told to come back
 * in so many seconds (503 + Retry-After, interactions/attempt.ts) rather than left waiting in a queue that
 * only grows.
 */
export const SIGN_IN_MAX_WAIT_MS = 10_000;

/** How every sign-in's credential check waits for a slot (the hosted login's and the developer area's). */
export const SIGN_IN_WAIT: WaitOptions = { maxWaitMs: SIGN_IN_MAX_WAIT_MS };

/** Where credentials are hashed and checked: in this process, or by the primary for a worker. */
export interface Hasher {
  hash(plain: string): Promise<string>;
  /** Rejects with LimiterBusyError when `o.maxWaitMs` is given and the wait for a slot would be longer. */
  verify(hash: string, plain: string, o?: WaitOptions): Promise<boolean>;
}

/** One argon2id hash, unbounded: callers hold a slot. */
export const argon2Hash = (plain: string): Promise<string> => argon2.hash(plain, ARGON2_OPTIONS);

/** One argon2id check, unbounded: callers hold a slot. A malformed hash is a mismatch. */
export async function argon2Verify(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/** argon2 on this process's thread pool, at most as many at once as `slots` allows. */
export function localHasher(slots: Slots): Hasher {
  return {
    hash: (plain) => slots.run(() => argon2Hash(plain)),
    verify: (hash, plain, o = {}) => slots.run(() => argon2Verify(hash, plain), o),
  };
}

let hasher: Hasher = localHasher(new Limiter(argon2Slots()));

/** Set once at startup: a worker's hashes are the primary's (src/cluster/worker.ts). */
export function useCredentialHasher(h: Hasher): void {
  hasher = h;
}

export const hashCredential = (plain: string): Promise<string> => hasher.hash(plain);

/** Rejects with LimiterBusyError when `o.maxWaitMs` is given and the wait for a slot would be longer. */
export const verifyCredential = (hash: string, plain: string, o: WaitOptions = {}): Promise<boolean> => hasher.verify(hash, plain, o);

/**
 * Checked against when a user does not exist, so that response times do not reveal who exists: made once,
 * with ARGON2_OPTIONS, from the public string 'lanyard-dummy-credential' (it guards nothing, and the check's
 * answer is thrown away). A constant rather than a hash made at startup, so that no process spends a hash
 * outside the machine's slots on it; test/unit/accounts/hashing.test.ts checks it still has Lanyard's parameters.
 */
export const DUMMY_HASH = '$argon2id$v=19$m=19456,p=1,t=2$cbONnv9lLd91SOTHT+PggA$hNOzJtwmGybwMhZCVpA/SsyLPgq0RADGrwl40LQY8OY';

/** A check that costs what a real one does (within the slots, like any other), and is always a mismatch. */
export async function verifyAgainstDummy(plain: string, o: WaitOptions = {}): Promise<false> {
  await verifyCredential(DUMMY_HASH, plain, o);
  return false;
}
