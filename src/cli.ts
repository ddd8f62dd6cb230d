#!/usr/bin/env node
import { withStore } from '../adapters/open-store.js';
import { importOrganisations } from './accounts/importer.js';
import { issueEmojiPasswordCommand } from './accounts/users-command.js';
import { printBadgesCommand, revokeBadgesCommand } from './badges/badges-command.js';
import { cliOptions, requireOption } from './cli-options.js';
import { storeCommand } from './cli/store-command.js';
import { CLIENT_SECRET_MIN_LENGTH, generateClientSecret, hashClientSecret } from './clients/client-secret.js';
import { systemClock } from './clock.js';
import { loadConfig, readConfigFile } from './config.js';
import { ConfigError } from './errors.js';
import { listKeysCommand, rotateNowCommand } from './keys/keys-command.js';
import { exitOnStartupError, serve } from './main.js';

const USAGE = `Usage: lanyard <command>

  serve                       run the identity provider (configured by environment, see README)
  import <file.json>          create or update organisations and users from a JSON file
                              ({"clients": [], "organisations": [...]}, the config file format)
  clients secret              generate a client secret; prints it once, and the hash for "secret_hashes"
  clients hash                read a secret from standard input; print its hash
  users emoji --org SLUG --user USERNAME
                              issue (or reset) a user's emoji password; printed once
  badges print --org SLUG [--users a,b] [--paper letter|a4] [--out FILE]
                              issue new badges and write the printable PDF sheet (to stdout without --out)
  badges revoke --org SLUG [--user USERNAME]
                              void one user's badge, or every badge of the organisation
  keys list [--json]          signing keys: kid, month, validity, status (signing/published/pending/retired)
  keys rotate --now           emergency: a fresh key signs now, the current one leaves the key set at once
  store copy --from URL --to URL [--merge]
                              copy everything from one store to another (SQLite, Redis) and verify it
  store migrate [--store URL] bring a SQLite store to this Lanyard's schema version (default: LANYARD_STORE)
  check-config [file.json]    validate a config file (default: LANYARD_CONFIG) and exit
`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

async function main(args: string[]): Promise<void> {
  // The store and the key-encryption key hold credentials: files Lanyard creates are the owner's only.
  process.umask(0o077);
  const [command, sub, ...rest] = args;
  switch (command) {
    case 'serve':
      return serve();
    case 'import': {
      if (!sub) throw new Error('import needs a file: lanyard import <file.json>');
      const file = readConfigFile(sub);
      const s = await withStore(loadConfig().storeUrl, systemClock, (store) => importOrganisations(store, file.organisations ?? [], 'command'));
      process.stdout.write(`imported ${s.organisations} organisation(s), ${s.users} user(s); ${s.passwordsSet} password(s) set`
        + `, ${s.emojiPasswordsSet} emoji password(s) set, ${s.badgesSet} badge(s) set\n`);
      return;
    }
    case 'clients': {
      if (sub === 'secret') {
        const secret = generateClientSecret();
        process.stdout.write(`secret (give it to the app; it is not stored anywhere): ${secret}\n`);
        process.stdout.write(`hash (add to the client's "secret_hashes"): ${hashClientSecret(secret)}\n`);
        return;
      }
      if (sub === 'hash') {
        const secret = await readStdin();
        if (secret.length < CLIENT_SECRET_MIN_LENGTH) {
          throw new Error(`a client secret must be at least ${CLIENT_SECRET_MIN_LENGTH} random characters (make one with \`lanyard clients secret\`)`);
        }
        process.stdout.write(`${hashClientSecret(secret)}\n`);
        return;
      }
      throw new Error(`unknown clients command "${sub ?? ''}"\n${USAGE}`);
    }
    case 'users': {
      const { values } = cliOptions(rest);
      if (sub === 'emoji') return issueEmojiPasswordCommand(loadConfig(), systemClock, requireOption(values, 'org'), requireOption(values, 'user'));
      throw new Error(`unknown users command "${sub ?? ''}"\n${USAGE}`);
    }
    case 'badges': {
      const { values } = cliOptions(rest);
      if (sub === 'print') {
        const paper = values.get('paper') ?? 'letter';
        if (paper !== 'letter' && paper !== 'a4') throw new Error('--paper is letter or a4');
        return printBadgesCommand(loadConfig(), systemClock, {
          slug: requireOption(values, 'org'),
          usernames: values.get('users')?.split(',').map((u) => u.trim()).filter(Boolean),
          paper,
          out: values.get('out'),
        });
      }
      if (sub === 'revoke') return revokeBadgesCommand(loadConfig(), systemClock, requireOption(values, 'org'), values.get('user'));
      throw new Error(`unknown badges command "${sub ?? ''}"\n${USAGE}`);
    }
    case 'keys': {
      if (sub === 'list') return listKeysCommand(loadConfig(), systemClock, rest.includes('--json'));
      if (sub === 'rotate') {
        if (!rest.includes('--now')) throw new Error('keys rotate replaces the signing key at once: confirm with --now');
        return rotateNowCommand(loadConfig(), systemClock);
      }
      throw new Error(`unknown keys command "${sub ?? ''}"\n${USAGE}`);
    }
    case 'store':
      return storeCommand(sub, rest);
    case 'check-config': {
      const config = sub ? { configPath: sub, file: readConfigFile(sub) } : loadConfig();
      process.stdout.write(`${config.configPath}: valid (${config.file.clients.length} client(s))\n`);
      return;
    }
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(USAGE);
      return;
    default:
      throw new Error(`unknown command "${command}"\n${USAGE}`);
  }
}

const argv = process.argv.slice(2);
main(argv).catch((err: unknown) => {
  // Only `serve` starts anything: a command that fails (a missing option, an unknown user) says just why.
  if (argv[0] === 'serve' || err instanceof ConfigError) exitOnStartupError(err);
  process.stderr.write(`lanyard: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
