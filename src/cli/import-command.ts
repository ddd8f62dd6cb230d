import { withConfiguredStore } from './configured-store.js';
import { importOrganisations } from '../roster/importer.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { readConfigFile } from '../config/file.js';
import { command } from './command.js';
import { STANDARD_OUTPUT } from './output.js';

/** `lanyard import <file.json>`: organisations and users into the store, without a restart. */
export const importCommand = command({
  name: 'import',
  summary: 'create or update organisations and users from a JSON file ({"clients": [], "organisations": [...]}, the config file format)',
  details: `Users are matched by organisation slug and username: importing again updates them and keeps their "sub".
Plaintext passwords are hashed (argon2id) on import. Runs against the store of LANYARD_STORE.`,
  args: [{ name: 'file.json', description: 'the file to import', required: true }],
  options: {},
  run: async ({ args: [path] }) => {
    const file = readConfigFile(path!);
    const s = await withConfiguredStore(loadConfig(), systemClock, (store) => importOrganisations(store, file.organisations ?? [], 'command'));
    STANDARD_OUTPUT.out(`imported ${s.organisations} organisation(s), ${s.users} user(s); ${s.passwordsSet} password(s) set`
      + `, ${s.emojiPasswordsSet} emoji password(s) set, ${s.badgesSet} badge(s) set`);
  },
});
