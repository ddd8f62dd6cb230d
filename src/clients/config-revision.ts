import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ConfigRevision, StoredConfigRevision } from '../../adapters/store.js';
import { CONFIG_REVISION_DEFAULT } from '../config/defaults.js';
import type { ConfigFile } from '../config/schema.js';
import { configClientSecrets, configClientSettings, everySchoolClientIds } from './config-clients.js';

/**
 * The revision of the configuration file's clients (docs/operations.md → Rolling configuration changes): the
 * file's `revision` number, which operators bump, and a hash of exactly what the file makes an instance write
 * into the store, its clients as derived (the Demo App's moved by LANYARD_DEMO_APP, plaintext secrets hashed,
 * defaults applied, `config_apps` deciding which are of every school) and the schools' app lists, in an order
 * that does not depend on the file's.
 */
export function configRevision(file: Pick<ConfigFile, 'revision' | 'clients' | 'organisations' | 'config_apps'>): ConfigRevision {
  const organisations = file.organisations ?? [];
  const everywhere = everySchoolClientIds(file);
  const byId = <T>(list: T[], id: (x: T) => string) => [...list].sort((a, b) => compare(id(a), id(b)));
  const clients = byId(file.clients, (c) => c.client_id).map((c) => ({
    client: configClientSettings(c, everywhere),
    secrets: [...configClientSecrets(c).values()].map((s) => s.hash).sort(compare),
  }));
  const apps = byId(organisations.filter((o) => o.apps?.length), (o) => o.slug).map((o) => ({ slug: o.slug, apps: o.apps }));
  const hash = createHash('sha256').update(JSON.stringify({ clients, apps })).digest('hex');
  return { version: file.revision ?? CONFIG_REVISION_DEFAULT, hash: `sha256:${hash}` };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The start of a revision's hash, enough to tell revisions apart in a log line, a metric or /readyz. */
export const shortHash = (hash: string): string => hash.replace(/^sha256:/, '').slice(0, 12);

/** A revision as people read it: `3 (9f2c1a0b7d3e)`. */
export const describeRevision = (r: ConfigRevision): string => `${r.version} (${shortHash(r.hash)})`;

export const sameRevision = (a: ConfigRevision, b: ConfigRevision): boolean => a.version === b.version && a.hash === b.hash;

/** This process among the instances on the store: its host, its process id and a random part. */
export const newInstanceId = (): string => `${hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;

/**
 * What an instance does with its file's clients, given the store's revision:
 * - `first`: the store holds none (a new store, or one from before revisions): written;
 * - `newer`: the file's number is higher: written;
 * - `same`: the same number and contents: written again (changes nothing, repairs what was changed by hand);
 * - `adopted`: the same number, other contents, and no other running instance runs the store's: written;
 * - `conflict`: the same number, other contents, and another instance runs the store's: not written;
 * - `older`: the file's number is lower: never written.
 */
export type RevisionOutcome = 'first' | 'newer' | 'same' | 'adopted' | 'conflict' | 'older';

export function decideRevision(mine: ConfigRevision, stored: StoredConfigRevision | undefined, storedRunsElsewhere: boolean): RevisionOutcome {
  if (!stored) return 'first';
  if (mine.version > stored.version) return 'newer';
  if (mine.version < stored.version) return 'older';
  if (mine.hash === stored.hash) return 'same';
  return storedRunsElsewhere ? 'conflict' : 'adopted';
}

/** Whether an outcome writes the file's clients. */
export const writesClients = (o: RevisionOutcome): boolean => o !== 'conflict' && o !== 'older';
