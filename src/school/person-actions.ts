import type { User } from '../../adapters/store.js';
import { suspend, unsuspend } from '../accounts/user-admin.js';
import { issueEmojiPassword } from '../accounts/user-emoji.js';
import { generatePassword, passwordProblem, setPassword } from '../accounts/user-password.js';
import type { AuditKind } from '../../adapters/store.js';
import type { EmojiName } from '../formats/emoji-bank.js';
import { mayChangeCredentials, type SchoolAccess } from './access.js';
import { type ActionVia, viaDetail } from './action-via.js';
import type { SchoolDeps } from './deps.js';
import { SchoolInputError } from './errors.js';
import { recordPersonChange } from './person-audit.js';

/**
 * What a school admin does to one person's account in the console (docs/school-console.md → People and
 * staff), each recorded in the school's audit trail: suspend and restore (src/accounts/user-admin.ts), a new
 * emoji password or password (shown once by the caller), a password the admin typed. A credential replaced,
 * and a suspension, end the person's sessions everywhere. Each asks access.ts mayChangeCredentials first: only
 * for the school's own people, never oneself, never someone who is staff at another school too.
 */

export type { ActionVia } from './action-via.js';

function record(deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, kind: AuditKind, action: string, o: ActionVia = {}): void {
  recordPersonChange(deps, school, actor, user, kind, action, viaDetail(o));
}

/** Suspends the person (not oneself: the console would sign its admin out for good). */
export async function suspendPerson(deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, o: ActionVia = {}): Promise<void> {
  await mayChangeCredentials(deps.store, school, user, actor);
  if (user.suspendedAt) return;
  await suspend(deps.store, deps.clock, user);
  record(deps, school, actor, user, 'console', 'user.suspended', o);
}

export async function restorePerson(deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, o: ActionVia = {}): Promise<void> {
  await mayChangeCredentials(deps.store, school, user, actor);
  if (!user.suspendedAt) return;
  await unsuspend(deps.store, user);
  record(deps, school, actor, user, 'console', 'user.restored', o);
}

/** A new emoji password for the person: its pictures, to be shown once. */
export async function resetEmoji(deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, o: ActionVia = {}): Promise<EmojiName[]> {
  await mayChangeCredentials(deps.store, school, user, actor);
  const { names } = await issueEmojiPassword(deps.store, user);
  record(deps, school, actor, user, 'credential', 'emoji.reset', o);
  return names;
}

/** A new password made up for the person (as `lanyard users password --generate`), to be shown once. */
export async function generatePersonPassword(deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, o: ActionVia = {}): Promise<string> {
  await mayChangeCredentials(deps.store, school, user, actor);
  const plain = generatePassword();
  await setPassword(deps.store, user, plain);
  record(deps, school, actor, user, 'credential', 'password.reset', o);
  return plain;
}

/** The password the admin typed twice for the person; SchoolInputError when the two differ or the policy refuses it. */
export async function setPersonPassword(
  deps: SchoolDeps, school: SchoolAccess, actor: User, user: User, plain: string, again: string, o: ActionVia = {},
): Promise<void> {
  await mayChangeCredentials(deps.store, school, user, actor);
  const problem = passwordProblem(plain);
  if (problem) throw new SchoolInputError(`The password was not set: ${problem}.`, [{ path: 'password', message: `The password is ${problem.replace(/^a password is /, '')}.` }]);
  if (plain !== again) throw new SchoolInputError('The password was not set: the two passwords differ.', [{ path: 'password_again', message: 'Type the same password twice.' }]);
  await setPassword(deps.store, user, plain);
  record(deps, school, actor, user, 'credential', 'password.set', o);
}
