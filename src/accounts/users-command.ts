import type { Organisation, Store, User } from '../../adapters/store.js';
import { withStore } from '../../adapters/open-store.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { hashCredential } from './credential-hasher.js';
import { canonicalEmojiPassword, describeEmojiPassword, generateEmojiPassword } from './emoji-bank.js';

/** The organisation and (optionally) one of its users, or a clear error for the command line. */
export async function findTargets(store: Store, slug: string, username?: string): Promise<{ organisation: Organisation; user?: User }> {
  const organisation = await store.findOrganisation(slug);
  if (!organisation) throw new Error(`no organisation "${slug}"`);
  if (username === undefined) return { organisation };
  const user = await store.findUserByUsername(organisation.id, username);
  if (!user) throw new Error(`no user "${username}" in ${organisation.name}`);
  return { organisation, user };
}

/**
 * `lanyard users emoji --org SLUG --user USERNAME`: issues (or resets) a user's emoji password and prints it
 * once, for the teacher to hand out. Lanyard keeps only its argon2id hash.
 */
export async function issueEmojiPasswordCommand(config: Config, clock: Clock, slug: string, username: string): Promise<void> {
  await withStore(config.storeUrl, clock, async (store) => {
    const { organisation, user } = await findTargets(store, slug, username);
    const names = generateEmojiPassword();
    await store.setCredential(user!.id, 'emoji', await hashCredential(canonicalEmojiPassword(names)!));
    process.stdout.write(`emoji password for ${user!.givenName} ${user!.familyName} (${user!.username}) at ${organisation.name}:\n`);
    process.stdout.write(`  ${describeEmojiPassword(names)}\n`);
    process.stdout.write('shown once: Lanyard keeps only a hash. Run this again to reset it.\n');
  });
}
