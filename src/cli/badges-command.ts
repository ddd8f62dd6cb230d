import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import type { Paper } from '../badges/label-layout.js';
import { command, type Group, ORG_OPTION } from './command.js';

/** The commands' work, loaded only when one runs (`lanyard --help` stays quick). */
const work = () => import('./run-badges.js');

const org = ORG_OPTION;

/** `lanyard badges …`: printing (which issues) and revoking magic badges. */
export const badgesCommands: Group = {
  name: 'badges',
  summary: 'magic badges (QR codes) for signing in',
  commands: [
    command({
      name: 'print',
      summary: 'issue new badges and write the printable PDF sheet (to stdout without --out)',
      details: `Printing issues new badges: the earlier badges of the printed users stop working. Prints the users of
the --types given and the users named by --users; with neither, the pupils (type "student").`,
      options: {
        org,
        users: { type: 'list', placeholder: 'a,b', description: 'these users (usernames, comma-separated)' },
        types: { type: 'list', placeholder: 'student,employee', description: 'the users of these types (comma-separated)' },
        paper: { type: 'string', choices: ['letter', 'a4'], default: 'letter', description: 'the label sheet: US Letter (3 × 4) or A4 (3 × 5)' },
        out: { type: 'string', placeholder: 'FILE', description: 'write the PDF to this file (mode 0600)' },
      },
      run: async ({ options }) => (await work()).printBadgesCommand(loadConfig(), systemClock, {
        slug: options.org,
        usernames: options.users,
        types: options.types,
        paper: options.paper as Paper,
        out: options.out,
      }),
    }),
    command({
      name: 'revoke',
      summary: "void one user's badge, or every badge of the organisation",
      options: {
        org,
        user: { type: 'string', placeholder: 'USERNAME', description: 'only this user (default: every badge of the organisation)' },
      },
      run: async ({ options }) => (await work()).revokeBadgesCommand(loadConfig(), systemClock, options.org, options.user),
    }),
  ],
};
