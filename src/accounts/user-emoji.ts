import type { Store, User } from '../../adapters/store.js';
import { canonicalEmojiPassword, type EmojiName, generateEmojiPassword } from '../formats/emoji-bank.js';
import { hashCredential } from './credential-hasher.js';

/**
 * Issuing a user a new emoji password (`lanyard users emoji`, the school console): six pictures drawn from the
 * bank, only their argon2id hash kept. A password that replaces another ends the user's sessions
 * (Directory.setCredential). The pictures are returned to be shown once.
 */
export async function issueEmojiPassword(store: Store, user: User): Promise<{ names: EmojiName[]; replaced: boolean }> {
  const names = generateEmojiPassword();
  const replaced = (await store.getCredential(user.id, 'emoji')) !== undefined;
  await store.setCredential(user.id, 'emoji', await hashCredential(canonicalEmojiPassword(names)!));
  return { names, replaced };
}
