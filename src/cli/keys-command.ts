import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { command, type Group } from './command.js';

/** The commands' work, loaded only when one runs (`lanyard --help` stays quick). */
const work = () => import('./run-keys.js');

/** `lanyard keys …`: the signing keys in the store (docs/security.md → Signing keys). */
export const keysCommands: Group = {
  name: 'keys',
  summary: 'the signing keys of ID tokens',
  commands: [
    command({
      name: 'list',
      summary: 'signing keys: kid, month, validity, status (signing/published/pending/retired)',
      options: { json: { type: 'flag', description: 'print JSON instead of a table' } },
      run: async ({ options }) => (await work()).listKeysCommand(loadConfig(), systemClock, options.json),
    }),
    command({
      name: 'rotate',
      summary: 'emergency: a fresh key signs now, the current one leaves the key set at once',
      details: `For a key that may be compromised. ID tokens signed with the withdrawn key stop verifying; running
instances switch within 10 seconds.`,
      options: {
        now: { type: 'flag', description: 'confirm: replace the signing key now', required: 'keys rotate replaces the signing key at once: confirm with --now' },
      },
      run: async () => (await work()).rotateNowCommand(loadConfig(), systemClock),
    }),
  ],
};
