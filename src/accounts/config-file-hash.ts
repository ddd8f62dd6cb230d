import { argon2Hash } from './credential-hasher.js';
import { canonicalEmojiPassword, EMOJI_PASSWORD_LENGTH, parseEmojiPassword } from '../formats/emoji-bank.js';

/** config/schema.json's bounds on a plaintext `password`. */
const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 1024;

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
  const length = [...input].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw new Error(`a password is ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  return argon2Hash(input);
}
