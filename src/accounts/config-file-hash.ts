import { argon2Hash } from './credential-hasher.js';
import { canonicalEmojiPassword, EMOJI_PASSWORD_LENGTH, parseEmojiPassword } from '../formats/emoji-bank.js';
import { passwordProblem } from './user-password.js';

/**
 * `lanyard users hash [--emoji]`: the argon2id hash of a password (for a user's `password_hash` in the
 * configuration file) or of an emoji password (`emoji_password_hash`: the names, canonical form), with the
 * parameters Lanyard hashes with, so that a production file holds no plaintext credential. Refuses what
 * the file's plaintext field would refuse.
 */
export async function configFileHash(input: string, o: { emoji: boolean }): Promise<string> {
  if (o.emoji) {
    const names = parseEmojiPassword(input);
    const canonical = canonicalEmojiPassword(names);
    if (!canonical) {
      throw new Error(`an emoji password is ${EMOJI_PASSWORD_LENGTH} emoji names separated by commas, from src/formats/emoji-bank.ts (e.g. dog,apple,rocket,star,cat,pizza)`);
    }
    return argon2Hash(canonical);
  }
  const problem = passwordProblem(input);
  if (problem) throw new Error(problem);
  return argon2Hash(input);
}
