import type { User } from '../../adapters/store.js';
import { withAuditedStore, withConfiguredStore } from './configured-store.js';
import { credentialChange } from '../audit/credential-change.js';
import { type Clock, systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import { describeEmojiPassword } from '../formats/emoji-bank.js';
import { issueEmojiPassword } from '../accounts/user-emoji.js';
import { deleteUser, listUsers, signOutEverywhere, suspend, unsuspend, type UserListing } from '../accounts/user-admin.js';
import { tableLines } from './table.js';
import { type CommandOutput, STANDARD_OUTPUT } from './output.js';
import { findClassTarget, findTargets } from './targets.js';
import { LoginThrottle, throttlePolicy } from '../accounts/login-throttle.js';
import { generatePassword, passwordProblem, setPassword } from '../accounts/user-password.js';
import { UsageError } from './command.js';
import { readSecret } from './stdin.js';
import { STAFF_THROTTLE_SCOPE } from '../school/throttle-scope.js';

const named = (user: User) => `${user.givenName} ${user.familyName} (${user.username})`;

/**
 * `lanyard users emoji --org SLUG --user USERNAME`: issues (or resets) a user's emoji password and prints it
 * once, for the teacher to hand out. Lanyard keeps only its argon2id hash. A reset ends the user's sessions.
 */
export async function issueEmojiPasswordCommand(
  config: Config, clock: Clock, slug: string, username: string, io: CommandOutput = STANDARD_OUTPUT,
): Promise<void> {
  const write = io.out;
  await withAuditedStore(config, clock, async (store, audit) => {
    const { organisation, user } = await findTargets(store, slug, username);
    const { names, replaced: reset } = await issueEmojiPassword(store, user!);
    audit.record(credentialChange(user!, reset ? 'emoji.reset' : 'emoji.set'));
    write(`emoji password for ${named(user!)} at ${organisation.name}:`);
    write(`  ${describeEmojiPassword(names)}`);
    write('shown once: Lanyard keeps only a hash. Run this again to reset it.');
    if (reset) write('the old emoji password no longer works, and they are signed out of Lanyard everywhere');
  });
}

export interface UserTarget { org: string; user: string }

export interface PasswordOptions extends UserTarget {
  /** Make one up (generatePassword) and print it once. */
  generate: boolean;
  /** Read it from standard input (without echo on a terminal). */
  stdin: boolean;
}

/**
 * `lanyard users password --org SLUG --user USERNAME (--generate | --stdin)`: sets (or resets) the user's
 * password; Lanyard keeps only its argon2id hash. A reset ends the user's sessions. A generated password is
 * printed once; one read from standard input never is.
 */
export async function setPasswordCommand(
  config: Config, clock: Clock, o: PasswordOptions, io: CommandOutput = STANDARD_OUTPUT, read: (what: string) => Promise<string> = readSecret,
): Promise<void> {
  if (o.generate === o.stdin) throw new UsageError('give --generate or --stdin (one of them)', 'users password');
  await withAuditedStore(config, clock, async (store, audit) => {
    const { organisation, user } = await findTargets(store, o.org, o.user);
    const plain = o.generate ? generatePassword() : await read('password');
    const problem = passwordProblem(plain);
    if (problem) throw new Error(`${problem}; nothing was changed`);
    const replaced = await setPassword(store, user!, plain);
    audit.record(credentialChange(user!, replaced ? 'password.reset' : 'password.set'));
    if (o.generate) {
      io.out(`password for ${named(user!)} at ${organisation.name}:`);
      io.out(`  ${plain}`);
      io.out('shown once: Lanyard keeps only a hash. Run this again to reset it.');
    } else {
      io.out(`password set for ${named(user!)} at ${organisation.name}`);
    }
    if (replaced) io.out('the old password no longer works, and they are signed out of Lanyard everywhere');
  });
}

/** `lanyard users signout --org SLUG --user USERNAME`: ends the user's Lanyard sessions and tokens everywhere. */
export async function signOutCommand(config: Config, clock: Clock, o: UserTarget, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  const write = io.out;
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, user } = await findTargets(store, o.org, o.user);
    await signOutEverywhere(store, user!);
    write(`${named(user!)} at ${organisation.name} is signed out of Lanyard everywhere: sessions ended, refresh and access tokens revoked`);
  });
}

/** `lanyard users suspend --org SLUG --user USERNAME`: no sign-in by any method until unsuspended; signed out. */
export async function suspendCommand(config: Config, clock: Clock, o: UserTarget, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  const write = io.out;
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, user } = await findTargets(store, o.org, o.user);
    await suspend(store, clock, user!);
    write(`${named(user!)} at ${organisation.name} is suspended: they cannot sign in, and are signed out everywhere`);
  });
}

/** `lanyard users unsuspend --org SLUG --user USERNAME`: the user can sign in again. */
export async function unsuspendCommand(config: Config, clock: Clock, o: UserTarget, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  const write = io.out;
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, user } = await findTargets(store, o.org, o.user);
    await unsuspend(store, user!);
    write(`${named(user!)} at ${organisation.name} ${user!.suspendedAt ? 'can sign in again' : 'was not suspended'}`);
  });
}

/**
 * `lanyard users delete --org SLUG --user USERNAME`: erases the user (credentials, badges, grants, tokens);
 * their id is never given to anyone else. Warns when the configuration file would create them again.
 */
export async function deleteUserCommand(config: Config, clock: Clock, o: UserTarget, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  const write = io.out;
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, user } = await findTargets(store, o.org, o.user);
    await deleteUser(store, clock, user!);
    write(`${named(user!)} is deleted from ${organisation.name}, with their credentials, badge, sessions and tokens; the id ${user!.id} is never reused`);
    const inFile = (config.file.organisations ?? []).some((org) => org.slug.toLowerCase() === organisation.slug.toLowerCase()
      && (org.users ?? []).some((u) => u.username.toLowerCase() === user!.username.toLowerCase()));
    if (inFile) {
      io.err(`warning: ${user!.username} is still in the configuration file ${config.configPath}: the next start creates them again, as a new user with a new id; remove them from the file`);
    }
  });
}

export interface ListOptions {
  org: string;
  /** Only this class's members: its Lanyard id or sourcedId. */
  class?: string | undefined;
  json?: boolean | undefined;
}

/**
 * `lanyard users list --org SLUG [--class ID] [--json]`: the organisation's users (or one class's members, of
 * any school: their own one is shown when it is another), username, name, type, classes, which credentials
 * are set, badge yes/no, status (active, suspended, or held by the roster: left or disabled, since when),
 * last sign-in. Never a secret or a hash.
 */
export async function listUsersCommand(config: Config, clock: Clock, o: ListOptions, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  const write = io.out;
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation } = await findTargets(store, o.org);
    const inClass = o.class === undefined ? undefined : await findClassTarget(store, organisation, o.class);
    const users = await listUsers(store, organisation, inClass ? { inClass } : {});
    if (o.json) return write(JSON.stringify(users, null, 2));
    if (!users.length) return write(inClass ? `${inClass.title} has no members` : `${organisation.name} has no users`);
    const rows = [['USERNAME', 'NAME', 'TYPE', 'CLASSES', 'CREDENTIALS', 'BADGE', 'STATUS', 'LAST SIGN-IN'], ...users.map(listingRow)];
    for (const l of tableLines(rows)) write(l);
  });
}

const listingRow = (u: UserListing): string[] => [
  u.username, `${u.givenName} ${u.familyName}${u.ownOrganisation ? ` (${u.ownOrganisation.name})` : ''}`, u.type, u.classes.join(', ') || '-',
  u.credentials.join(',') || '-', u.badge ? 'yes' : 'no', status(u), u.lastSignIn ? minuteUtc(u.lastSignIn) : 'never',
];

/** Whether the user may sign in, as the table says it: `active`, `suspended`, `left since 2025-06-30`, `disabled since …`, or both. */
const status = (u: UserListing): string => {
  const hold = u.rosterHold && `${u.rosterHold}${u.rosterHoldSince ? ` since ${u.rosterHoldSince.slice(0, 10)}` : ''}`;
  return [u.suspended ? 'suspended' : undefined, hold].filter(Boolean).join(', ') || 'active';
};

/** An instant as the table shows it: to the minute, in UTC (`2025-05-01 08:31 UTC`). */
export const minuteUtc = (iso: string): string => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * `lanyard users unlock --org SLUG --user USERNAME`: clears the user's waits, including an unknown-device
 * path stopped after too many wrong tries (docs/security.md → Sign-in protection). Devices stay known.
 */
export async function unlockUserCommand(config: Config, o: UserTarget, clock: Clock = systemClock, io: CommandOutput = STANDARD_OUTPUT): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, user } = await findTargets(store, o.org, o.user);
    const throttle = new LoginThrottle(store, clock, throttlePolicy(config.file.login_throttling));
    const stopped = await throttle.stoppedFactors(organisation.id, user!.username);
    await throttle.unlock(organisation.id, user!.username);
    // The school console's own checks of a member of staff's password and codes (src/school/throttle-scope.ts).
    for (const scope of Object.values(STAFF_THROTTLE_SCOPE)) await throttle.unlock(scope, user!.id);
    io.out(`unlocked ${user!.username} at ${organisation.name}`
      + `${stopped.length ? ` (sign-in from new devices had stopped: ${stopped.join(', ')})` : ''}; known devices stay known`);
  });
}
