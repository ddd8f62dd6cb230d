import type { CredentialKind, Directory, Organisation, User } from '../../adapters/store.js';
import { maySignIn } from './account-status.js';
import { SIGN_IN_WAIT, verifyAgainstDummy, verifyCredential } from './credential-hasher.js';
import { canonicalEmojiPassword } from '../formats/emoji-bank.js';

/**
 * A user's secret inside one organisation. Unknown user, user without that secret, wrong secret and a
 * suspended user (even with the right secret) all cost one argon2 verification and give the same answer
 * (no user enumeration; a suspension is not revealed to whoever holds the secret). When the machine is
 * saturated with sign-ins it rejects with LimiterBusyError instead of queueing (SIGN_IN_MAX_WAIT_MS).
 */
export async function checkUserSecret(
  directory: Directory,
  organisation: Organisation,
  username: string,
  kind: CredentialKind,
  secret: string,
): Promise<User | undefined> {
  const user = username ? await directory.findUserByUsername(organisation.id, username.trim()) : undefined;
  const hash = user && (await directory.getCredential(user.id, kind));
  if (!user || !hash) {
    await verifyAgainstDummy(secret, SIGN_IN_WAIT);
    return undefined;
  }
  return (await verifyCredential(hash, secret, SIGN_IN_WAIT)) && maySignIn(user) ? user : undefined;
}

export const checkPassword = (directory: Directory, organisation: Organisation, username: string, password: string) =>
  checkUserSecret(directory, organisation, username, 'password', password);

/** `names`: the tapped pictures; anything but six names from the bank fails like a wrong password. */
export const checkEmojiPassword = (directory: Directory, organisation: Organisation, username: string, names: string[]) =>
  checkUserSecret(directory, organisation, username, 'emoji', canonicalEmojiPassword(names) ?? '');
