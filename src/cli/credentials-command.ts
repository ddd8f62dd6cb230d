import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import type { Paper } from '../badges/label-layout.js';
import { command, type Group, ORG_OPTION } from './command.js';

/** The commands' work, loaded only when one runs (`lanyard --help` stays quick). */
const work = () => import('./run-credentials.js');

/** `lanyard credentials …`: credentials for a whole class (or many users) at once, printed. */
export const credentialsCommands: Group = {
  name: 'credentials',
  summary: 'credentials for a whole class (or many users) at once, as one printable PDF',
  commands: [
    command({
      name: 'issue',
      summary: 'issue emoji passwords, passwords or badges to a class or users, and write the cards, letters or badge sheet',
      details: `--class ID (its id or sourcedId: lanyard classes list) selects the class's pupils (enrolled as students)
who can sign in; --users a,b names users; given both, the class's pupils then the users named.
  emoji:    emoji cards, 8 a page to cut out: name, username, class, the six pictures numbered 1 to 6
  password: password letters, 2 a page: name, school, username, a new password (about 79 bits), how to sign in
  badge:    the badge sheet of lanyard badges print
Without --only-missing, everyone selected gets a new one: their earlier credential of that kind stops working
and they are signed out everywhere. The PDF (mode 0600) holds the secrets; nothing secret is printed. An
existing --out file is not replaced without --force. See docs/rostering.md → Credentials for a class.`,
      options: {
        org: ORG_OPTION,
        class: { type: 'string', placeholder: 'ID', description: "the class's pupils (its id or sourcedId)" },
        users: { type: 'list', placeholder: 'a,b', description: 'these users (usernames, comma-separated)' },
        method: { type: 'string', placeholder: 'KIND', choices: ['emoji', 'password', 'badge'], required: '--method is emoji, password or badge', description: 'emoji, password or badge' },
        'only-missing': { type: 'flag', description: 'only those who have no credential of that kind (a badge: no active one)' },
        out: { type: 'string', placeholder: 'FILE.pdf', required: '--out FILE.pdf is required: the PDF holds the secrets', description: 'the PDF to write (mode 0600)' },
        force: { type: 'flag', description: 'replace an existing --out file' },
        paper: { type: 'string', choices: ['letter', 'a4'], default: 'letter', description: 'US Letter or A4' },
      },
      run: async ({ options }) => (await work()).issueCredentialsCommand(loadConfig(), systemClock, {
        org: options.org,
        class: options.class,
        users: options.users,
        method: options.method as 'emoji' | 'password' | 'badge',
        onlyMissing: options['only-missing'],
        out: options.out,
        force: options.force,
        paper: options.paper as Paper,
      }),
    }),
  ],
};
