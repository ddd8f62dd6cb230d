import { configFileHash } from '../accounts/config-file-hash.js';
import {
  deleteUserCommand, issueEmojiPasswordCommand, listUsersCommand, setPasswordCommand, signOutCommand, suspendCommand, unlockUserCommand,
  unsuspendCommand,
} from './run-users.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { command, type Group, JSON_OPTION, ORG_OPTION } from './command.js';
import { readStdin } from './stdin.js';
import { STANDARD_OUTPUT } from './output.js';

/** Options most user commands share. */
const org = ORG_OPTION;
const user = { type: 'string', placeholder: 'USERNAME', description: 'the user (their username)', required: true } as const;

/** `lanyard users …`: one user's credentials and sessions. A new command is one more entry here. */
export const usersCommands: Group = {
  name: 'users',
  summary: 'manage one user of an organisation',
  commands: [
    command({
      name: 'emoji',
      summary: "issue (or reset) a user's emoji password; printed once",
      details: 'Six pictures drawn at random; only their argon2id hash is kept. The old emoji password stops working.',
      options: { org, user },
      run: ({ options }) => issueEmojiPasswordCommand(loadConfig(), systemClock, options.org, options.user),
    }),
    command({
      name: 'password',
      summary: "set (or reset) a user's password: --generate makes one up and prints it once, --stdin reads it",
      details: '--generate: 16 letters and digits that cannot be misread (no 0/o, 1/l/i), in groups of four with\n'
        + 'hyphens, which are part of it (k7fm-3qzp-x9ad-wr2e: about 79 bits). Printed once.\n'
        + '--stdin: read from standard input, one final line break dropped; typed at a terminal, it is asked for\n'
        + 'twice and not shown. 8 to 1024 characters.\n'
        + '  printf %s "$PASSWORD" | lanyard users password --org SLUG --user USERNAME --stdin\n'
        + 'Only its argon2id hash is kept. The old password stops working and the user is signed out everywhere.',
      options: {
        org,
        user,
        generate: { type: 'flag', description: 'make up a strong password and print it once' },
        stdin: { type: 'flag', description: 'read the password from standard input (not echoed on a terminal)' },
      },
      run: ({ options }) => setPasswordCommand(loadConfig(), systemClock, options),
    }),
    command({
      name: 'hash',
      summary: 'read a password from standard input; print its argon2id hash for "password_hash" (--emoji: "emoji_password_hash")',
      details: 'For a configuration file without plaintext credentials (production refuses them):\n'
        + '  printf %s "$PASSWORD" | lanyard users hash\n'
        + '  echo dog,apple,rocket,star,cat,pizza | lanyard users hash --emoji\n'
        + 'Nothing is stored; the password is never printed. Each run gives another hash (a new salt): any of them works.',
      options: { emoji: { type: 'flag', description: 'the input is an emoji password: six emoji names separated by commas' } },
      run: async ({ options }) => {
        STANDARD_OUTPUT.out(await configFileHash(await readStdin(), { emoji: options.emoji }));
      },
    }),
    command({
      name: 'list',
      summary: "an organisation's users: username, name, type, classes, credentials set, status, last sign-in (never secrets)",
      details: `Status: active, suspended, or held by the roster ("left since 2025-06-30", "disabled since …"): only an
active user can sign in. With --class, every member of the class, those whose own school is another one too
(named after their name). Last sign-in: the last successful sign-in to Lanyard by any method, to the minute
in UTC, or "never".`,
      options: {
        org,
        class: { type: 'string', placeholder: 'ID', description: "only this class's members, of any school (its id or sourcedId: lanyard classes list)" },
        json: JSON_OPTION,
      },
      run: ({ options }) => listUsersCommand(loadConfig(), systemClock, { org: options.org, class: options.class, json: options.json }),
    }),
    command({
      name: 'unlock',
      summary: "clear a user's sign-in waits, including new-device sign-in stopped after too many wrong tries",
      details: 'Known devices stay known. See docs/security.md → Sign-in protection.',
      options: { org, user },
      run: ({ options }) => unlockUserCommand(loadConfig(), { org: options.org, user: options.user }),
    }),
    command({
      name: 'signout',
      summary: 'sign a user out everywhere: every Lanyard session ends, refresh and access tokens stop working',
      options: { org, user },
      run: ({ options }) => signOutCommand(loadConfig(), systemClock, { org: options.org, user: options.user }),
    }),
    command({
      name: 'suspend',
      summary: 'stop a user signing in by any method, and sign them out everywhere',
      options: { org, user },
      run: ({ options }) => suspendCommand(loadConfig(), systemClock, { org: options.org, user: options.user }),
    }),
    command({
      name: 'unsuspend',
      summary: 'let a suspended user sign in again',
      options: { org, user },
      run: ({ options }) => unsuspendCommand(loadConfig(), systemClock, { org: options.org, user: options.user }),
    }),
    command({
      name: 'delete',
      summary: 'erase a user: credentials, badges, sessions, grants and tokens (their id is never reused)',
      options: { org, user },
      run: ({ options }) => deleteUserCommand(loadConfig(), systemClock, { org: options.org, user: options.user }),
    }),
  ],
};
