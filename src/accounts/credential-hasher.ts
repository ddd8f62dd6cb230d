import argon2 from 'argon2';
import { argon2Slots } from '../cluster/sizing.js';
import { Limiter, type Slots, type WaitOptions } from './limiter.js';

/**
 * argon2id for every user credential (passwords, emoji passwords). Parameters are OWASP's minimum recommendation
 * (m = 19 MiB, t = 2, p = 1). Hashing runs on libuv's pool; the slots bound how many run at once on the
 * machine (src/cluster/sizing.ts: a Limiter here, or the primary's when there are workers), so that a burst
 * of logins cannot starve token signing.
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

let slots: Slots = new Limiter(argon2Slots());

/** Where hashes get their slots: set once at startup (a worker uses the primary's, src/cluster/worker.ts). */
export function useCredentialHashingSlots(s: Slots): void {
  slots = s;
}

export function hashCredential(plain: string): Promise<string> {
  return slots.run(() => argon2.hash(plain, ARGON2_OPTIONS));
}

/** Rejects with LimiterBusyError when `o.maxWaitMs` is given and the wait for a slot would be longer. */
export async function verifyCredential(hash: string, plain: string, o: WaitOptions = {}): Promise<boolean> {
  return slots.run(async () => {
    try {
      return await argon2.verify(hash, plain);
    } catch {
      return false;
    }
  }, o);
}

/** Verifying against this when a user does not exist keeps response times from revealing who exists. */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(plain: string, o: WaitOptions = {}): Promise<false> {
  dummyHash ??= argon2.hash('lanyard-dummy-credential', ARGON2_OPTIONS);
  await verifyCredential(await dummyHash, plain, o);
  return false;
}
