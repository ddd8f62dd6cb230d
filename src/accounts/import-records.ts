import type { Store } from '../../adapters/store.js';

/**
 * What an import (the configuration file at startup, `lanyard import`) last stored for one credential of one
 * user, kept as a setting so that a restart does not undo what the CLI changed since, and so that the startup
 * summary can tell whether a demo credential still signs in.
 */

/** The setting that remembers what an import last stored for one credential of one user. */
export const seedKey = (userId: string, kind: SeedKind) => `seed:${userId}:${kind}`;
export type SeedKind = 'password' | 'emoji' | 'badge';
const SEED_KINDS: SeedKind[] = ['password', 'emoji', 'badge'];

/**
 * Whether the credential of `kind` a file last gave the user is still theirs: nothing replaced it since (the
 * CLI issuing an emoji password or a badge again, a badge revoked). What the file gave is recorded as its hash
 * (below), so no argon2 verification is needed. For the startup summary's demo users.
 */
export async function seededCredentialInUse(store: Store, userId: string, kind: SeedKind): Promise<boolean> {
  const seeded = await store.getSetting(seedKey(userId, kind));
  if (seeded === undefined) return false;
  if (kind === 'badge') return (await store.findBadge(seeded))?.userId === userId;
  return (await store.getCredential(userId, kind)) === seeded;
}

/** Forgets what imports stored for a user (a deleted user leaves no trace but their retired id). */
export async function forgetImportRecords(store: Store, userId: string): Promise<void> {
  for (const kind of SEED_KINDS) await store.deleteSetting(seedKey(userId, kind));
}
