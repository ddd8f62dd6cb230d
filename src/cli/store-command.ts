import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { storeDataDir, withStore } from '../../adapters/open-store.js';
import { parseRedisUrl, redactUrl, redisPrefixProblem } from '../config/store-url.js';
import { readSchemaVersion, SCHEMA_VERSION } from '../../adapters/sqlite/migrate.js';
import { ENTRY_KINDS } from '../../adapters/store.js';
import { systemClock } from '../clock.js';
import { envRedisPrefix, loadConfig } from '../config/config.js';
import { KEK_FILE } from '../keys/key-encryption-key.js';
import { copyStore, type CopyProgress, type CopyReport, nEntries } from '../../adapters/store-copy.js';
import { command, type Group } from './command.js';
import { tableLines } from './table.js';
import { STANDARD_OUTPUT } from './output.js';

/**
 * `lanyard store copy`, `lanyard store migrate` and `lanyard store init`: parse, call the service
 * (adapters/store-copy.ts; run-store.ts for init), print.
 */

const STORE_URLS = `Stores: sqlite:<path>, redis://[user:password@]host:port[/db], rediss://...,
redis-sentinel://host:port[,host:port...]/master[/db].`;
const FROM_AND_TO = '--from and --to are required';

export const storeCommands: Group = {
  name: 'store',
  summary: 'copy a store to another (SQLite, Redis), migrate SQLite stores, start an emptied store anew',
  commands: [
    command({
      name: 'copy',
      summary: 'copy everything from one store to another (SQLite, Redis) and verify it',
      details: `Copies every organisation, user, credential, badge, client, client secret, signing key, setting, session,
grant, token and login counter from one store to another, then counts both to verify. Sessions, grants
and tokens keep their remaining lifetimes. Stop Lanyard first: changes made during the copy may be missed.
${STORE_URLS}

Signing keys are copied still encrypted: the target needs the source's key-encryption key.`,
      options: {
        from: { type: 'string', placeholder: 'URL', description: 'the store to read', required: FROM_AND_TO },
        to: { type: 'string', placeholder: 'URL', description: 'the store to write; it must be empty, unless --merge', required: FROM_AND_TO },
        merge: { type: 'flag', description: 'write into a store that already holds entries (entries with the same id are replaced)' },
        'prefix-from': { type: 'string', placeholder: 'PREFIX', description: 'the source\'s Redis key prefix (default: LANYARD_REDIS_PREFIX, else "lanyard")' },
        'prefix-to': { type: 'string', placeholder: 'PREFIX', description: 'the target\'s Redis key prefix (same default)' },
      },
      run: ({ options: o }) => copyCommand(o.from, o.to, o.merge, o['prefix-from'], o['prefix-to']),
    }),
    command({
      name: 'migrate',
      summary: "bring a SQLite store to this Lanyard's schema version (default: LANYARD_STORE)",
      details: `Brings a SQLite store to this Lanyard's schema version (${SCHEMA_VERSION}) and prints the version before and
after. Lanyard does the same when it starts; run this to upgrade ahead of a deployment. Redis keeps no schema.`,
      options: {
        store: { type: 'string', placeholder: 'URL', description: 'the store (default: LANYARD_STORE, else sqlite:./data/lanyard.db)' },
      },
      run: ({ options }) => {
        // Without --store, the store Lanyard itself would open, read the way every command reads it.
        const config = options.store ? undefined : loadConfig();
        return migrateCommand(options.store ?? config!.storeUrl, config?.redisPrefix ?? redisPrefix(undefined, 'LANYARD_REDIS_PREFIX'));
      },
    }),
    command({
      name: 'init',
      summary: 'confirm that a store emptied under Lanyard starts anew (LANYARD_STORE): a new identity and signing key',
      details: `When the store was emptied under running instances (a Redis restarted without persistence, deleted rows),
they answer /readyz with 503, make no signing key, and new instances refuse to start, until the store is
restored from a backup or this command confirms a new start: it makes the month's signing key (keeping one
that is there), gives the store a new identity, clears the recorded loss and writes the configuration file
into it as a start does. Running instances take it within 10 seconds. Tokens issued before the store was
emptied stay invalid. A store whose identity and keys are intact is left alone.`,
      options: {},
      run: async () => (await import('./run-store.js')).initStoreCommand(loadConfig(), systemClock),
    }),
  ],
};

const line = STANDARD_OUTPUT.out;

/** A Redis key prefix: the option's value, else LANYARD_REDIS_PREFIX, else the default (src/config/defaults.ts). */
function redisPrefix(given: string | undefined, what: string): string {
  const prefix = given ?? envRedisPrefix();
  const problem = redisPrefixProblem(prefix);
  if (problem) throw new Error(`${what}: ${problem}`);
  return prefix;
}

/** Where a store's data is, ignoring credentials and spelling: two URLs naming one store must not be copied. */
function location(url: string, prefix: string): string {
  if (url.startsWith('sqlite:')) {
    const path = resolve(url.slice('sqlite:'.length));
    return `sqlite:${existsSync(path) ? realpathSync(path) : path}`;
  }
  if (!/^(redis|rediss|redis-sentinel):\/\//.test(url)) return url; // openStore names what is wrong with it
  const t = parseRedisUrl(url);
  const servers = t.sentinels ? t.sentinels.map((s) => `${s.host}:${s.port}`).sort().join(',') + `/${t.masterName}` : `${t.host}:${t.port}`;
  return `redis:${servers}/${t.db}#${prefix}`;
}

async function copyCommand(from: string, to: string, merge: boolean, givenPrefixFrom?: string, givenPrefixTo?: string): Promise<void> {
  const prefixFrom = redisPrefix(givenPrefixFrom, '--prefix-from');
  const prefixTo = redisPrefix(givenPrefixTo, '--prefix-to');
  for (const url of [from, to]) {
    if (url === 'sqlite::memory:') throw new Error('sqlite::memory: lives only as long as this command: copy from or to a file or a Redis server');
  }
  if (location(from, prefixFrom) === location(to, prefixTo)) throw new Error(`--from and --to name the same store (${redactUrl(from)})`);
  // Opening a SQLite path creates an empty database: a mistyped source would "copy" nothing, successfully.
  if (from.startsWith('sqlite:') && !existsSync(from.slice('sqlite:'.length))) throw new Error(`--from ${from}: no such database file`);

  const progress = progressReporter(process.stderr);
  const report = await withStore(from, systemClock, (source) => withStore(to, systemClock, async (target) => {
    try {
      return await copyStore(source, target, { clock: systemClock, merge, onProgress: progress.update });
    } finally {
      progress.end();
    }
  }, { redisPrefix: prefixTo }), { redisPrefix: prefixFrom });

  printTable(report);
  if (report.shortfalls.length) {
    const missing = report.shortfalls.map((s) => `${s.kind}: ${s.held} in the target, ${s.expected} copied`).join('; ');
    throw new Error(`verification failed, the target holds fewer entries than were copied (${missing})`);
  }
  line(`copied ${nEntries(report.entries)} from ${redactUrl(from)} to ${redactUrl(to)}; verified`);
  const note = report.copied.key > 0 ? keyNote(from, to) : undefined;
  if (note) STANDARD_OUTPUT.err(`note: ${note}`);
}

function printTable(report: CopyReport): void {
  const rows = [['KIND', 'COPIED', 'IN TARGET'], ...ENTRY_KINDS.map((k) => [k, String(report.copied[k]), String(report.held[k])])];
  for (const l of tableLines(rows, (column) => column > 0)) line(l);
}

/** The copied keys decrypt only with the key-encryption key they were sealed with: say where it is. */
function keyNote(from: string, to: string): string | undefined {
  const read = (dir: string | undefined) => (dir && existsSync(join(dir, KEK_FILE)) ? readFileSync(join(dir, KEK_FILE), 'utf8').trim() : undefined);
  const [fromDir, toDir] = [storeDataDir(from), storeDataDir(to)];
  const [fromKek, toKek] = [read(fromDir), read(toDir)];
  const sealed = 'signing keys are copied still encrypted';
  if (!fromKek) return `${sealed}: run the target with the source's LANYARD_KEY_ENCRYPTION_KEY`;
  if (fromKek === toKek) return undefined;
  const file = join(fromDir!, KEK_FILE);
  if (!toDir) return `${sealed}: run the target with LANYARD_KEY_ENCRYPTION_KEY set to the contents of ${file}`;
  return `${sealed}: copy ${file} to ${toDir}/${toKek ? ' (replacing the different one there)' : ''}, or run the target with LANYARD_KEY_ENCRYPTION_KEY set to its contents`;
}

/** `[█████░░░░░] 1200/2400 50% oidc`: the progress line drawn on a terminal. */
export function progressLine(copied: number, total: number, kind: string, width = 24): string {
  // A live source can grow during the copy: never past 100%.
  const ratio = total > 0 ? Math.min(1, copied / total) : 1;
  const filled = Math.round(ratio * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${copied}/${total} ${Math.floor(ratio * 100)}% ${kind}`;
}

/** On a terminal, one line redrawn in place (at most every 100 ms); otherwise a line per finished kind. */
function progressReporter(stream: NodeJS.WriteStream): { update: (p: CopyProgress) => void; end: () => void } {
  if (!stream.isTTY) {
    return {
      update: (p) => { if (p.type === 'kind-done') stream.write(`copied ${p.kind}: ${p.count} (${p.copied}/${nEntries(p.total)})\n`); },
      end: () => {},
    };
  }
  let drawn = false;
  let last = 0;
  return {
    update: (p) => {
      const now = Date.now();
      if (p.type === 'batch' && now - last < 100) return;
      last = now;
      drawn = true;
      stream.write(`\r${progressLine(p.copied, p.total, p.kind)}\x1b[K`);
    },
    end: () => { if (drawn) stream.write('\n'); },
  };
}

async function migrateCommand(url: string, redisPrefix: string): Promise<void> {
  if (!url.startsWith('sqlite:')) {
    await withStore(url, systemClock, (store) => store.ping(), { redisPrefix });
    return line(`${redactUrl(url)}: Redis keeps no schema; nothing to migrate`);
  }
  const path = url.slice('sqlite:'.length);
  if (path === ':memory:') throw new Error('sqlite::memory: lives only as long as this command: nothing to migrate');
  const before = existsSync(path) ? readSchemaVersion(path) : undefined;
  await withStore(url, systemClock, async () => {}); // opening migrates
  const after = readSchemaVersion(path);
  line(`store: ${url}`);
  line(`schema version before: ${before ?? 'none (no database yet)'}`);
  line(`schema version after: ${after}`);
  line(before === after ? `already at schema version ${after}; nothing to do` : `migrated to schema version ${after}`);
}
