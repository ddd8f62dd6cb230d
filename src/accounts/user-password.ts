import { randomInt } from 'node:crypto';
import type { Store, User } from '../../adapters/store.js';
import { hashCredential } from './credential-hasher.js';

/**
 * A school user's password: the policy every way of setting one shares (the configuration file's
 * `password`, `lanyard users hash`, `lanyard users password`, password letters), the passwords Lanyard makes
 * up, and setting one.
 */

/** The bounds on a password, in characters (config/schema.json's `password` has the same). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** What is wrong with a password someone chose, or undefined when it may be used. */
export function passwordProblem(plain: string): string | undefined {
  const length = [...plain].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    return `a password is ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`;
  }
  return undefined;
}

/** Lower-case letters and digits that cannot be misread for one another on paper: no 0/o, 1/l/i. 31 symbols. */
export const GENERATED_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/**
 * A new password, e.g. `k7fm-3qzp-x9ad-wr2e`: 16 symbols drawn uniformly and independently (node:crypto's
 * randomInt) from GENERATED_ALPHABET, so 16 × log2(31) ≈ 79 bits, written in groups of four joined by
 * hyphens, which are part of it (what is printed is exactly what is typed). Far beyond guessing at any
 * rate sign-in protection allows, and beyond an offline attack on one argon2id hash.
 */
export function generatePassword(): string {
  const symbol = () => GENERATED_ALPHABET[randomInt(GENERATED_ALPHABET.length)]!;
  return Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, symbol).join('')).join('-');
}

/**
 * Stores the password's argon2id hash for the user (hashed within the machine's argon2 slots). A password
 * that replaces another ends the user's sessions (Directory.setCredential). True when one was replaced.
 */
export async function setPassword(store: Store, user: User, plain: string): Promise<boolean> {
  const problem = passwordProblem(plain);
  if (problem) throw new Error(problem);
  const replaced = (await store.getCredential(user.id, 'password')) !== undefined;
  await store.setCredential(user.id, 'password', await hashCredential(plain));
  return replaced;
}
