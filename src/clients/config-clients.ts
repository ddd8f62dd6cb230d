import type { Clients, StoredClient, StoredClientSecret } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { ClientConfig, ConfigApps, ConfigFile, OrganisationSeed } from '../config/schema.js';
import { appSeedClientId } from '../config/file.js';
import { ConfigError } from '../errors.js';
import { LANYARD_CLIENT_ID } from './builtin-clients.js';
import { hashClientSecret } from './client-secret.js';
import { CONFIG_APPS_DEFAULT, RESPONSE_TYPES_DEFAULT } from '../config/defaults.js';

/** Secrets from the config file carry this id prefix: they are the file's to add and remove. */
const CONFIG_SECRET = 'config-';

export interface ConfigClientsResult {
  written: string[];
  removed: string[];
}

/**
 * Writes the config file's clients into the store at startup (the file stays the ops team's way to define
 * them), so every instance serves them from the store. A config client is replaced by the file's version;
 * its file secrets are made to match the file (secrets added elsewhere are kept); a config client no longer
 * in the file is removed. Clients from the developer area are never touched: a config client with the id of
 * one stops startup (ConfigError).
 */
export async function syncConfigClients(
  store: Clients, clients: ClientConfig[], clock: Clock, organisations: OrganisationSeed[] = [], configApps: ConfigApps = CONFIG_APPS_DEFAULT,
): Promise<ConfigClientsResult> {
  const now = clock.now().toISOString();
  const everywhere = everySchoolClientIds({ clients, organisations, config_apps: configApps });
  const result: ConfigClientsResult = { written: [], removed: [] };
  for (const [i, c] of clients.entries()) {
    if (c.client_id === LANYARD_CLIENT_ID) {
      throw new ConfigError([`/clients/${i}/client_id: "${c.client_id}" is reserved for Lanyard's own pages; choose another client_id`]);
    }
    const existing = await store.findClient(c.client_id);
    // Never take over (and later delete) an app registered in the developer area under the same id.
    if (existing && existing.source !== 'config') {
      throw new ConfigError([`/clients/${i}/client_id: "${c.client_id}" is already registered in the developer area; choose another client_id`]);
    }
    const client: StoredClient = {
      ...configClientSettings(c, everywhere),
      ownerId: existing?.ownerId,
      status: 'live',
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    if (!existing || !sameSettings(existing, client)) {
      await store.putClient(client);
      result.written.push(c.client_id);
    }
    await syncSecrets(store, c, now);
  }
  const inFile = new Set(clients.map((c) => c.client_id));
  for (const stored of await store.listClients()) {
    if (stored.source === 'config' && !inFile.has(stored.clientId)) {
      await store.deleteClient(stored.clientId);
      result.removed.push(stored.clientId);
    }
  }
  return result;
}

/** The clients some organisation lists in `apps`: only those are connected to some schools, not every one. */
export const listedClientIds = (organisations: OrganisationSeed[]): Set<string> =>
  new Set(organisations.flatMap((o) => (o.apps ?? []).map(appSeedClientId)));

/** The file's clients that no organisation lists in `apps` (docs/dashboard-and-app-launch.md → Which apps a school uses). */
export function unlistedClientIds(file: Pick<ConfigFile, 'clients' | 'organisations'>): Set<string> {
  const listed = listedClientIds(file.organisations ?? []);
  return new Set(file.clients.map((c) => c.client_id).filter((id) => !listed.has(id)));
}

/** The file's clients connected to every school: the unlisted ones with `config_apps: "every_school"`; none when they are offered. */
export const everySchoolClientIds = (file: Pick<ConfigFile, 'clients' | 'organisations' | 'config_apps'>): Set<string> =>
  ((file.config_apps ?? CONFIG_APPS_DEFAULT) === 'every_school' ? unlistedClientIds(file) : new Set());

/**
 * The file's clients a school admin may connect in the school console (listed there as offered): the unlisted
 * ones while `config_apps` is `offered`. A client the file lists for some schools is theirs alone.
 */
export const offeredClientIds = (file: Pick<ConfigFile, 'clients' | 'organisations' | 'config_apps'>): Set<string> =>
  ((file.config_apps ?? CONFIG_APPS_DEFAULT) === 'offered' ? unlistedClientIds(file) : new Set());

/** What the store holds of a file client, as the file gives it (src/clients/config-revision.ts hashes the same). */
export function configClientSettings(c: ClientConfig, everywhere: Set<string>) {
  return {
    clientId: c.client_id,
    name: c.name,
    redirectUris: c.redirect_uris,
    defaultScopes: c.default_scopes ?? [],
    logoutUrl: c.logout_url,
    initiateLoginUri: c.initiate_login_uri,
    // With `config_apps: "every_school"`, a client no organisation lists is connected to every school (as
    // before connections existed); otherwise only to the schools that list or connect it.
    allOrganisations: everywhere.has(c.client_id) ? true : undefined,
    // SPEC: GET /oauth/authorize — response_type `code`; `id_token` (implicit) only for clients that opt in.
    responseTypes: c.response_types ?? [...RESPONSE_TYPES_DEFAULT],
    source: 'config' as const,
  } satisfies Partial<StoredClient>;
}

/** The secrets the file gives a client, by their stored id (plaintext ones hashed: only hashes are stored). */
export function configClientSecrets(c: ClientConfig): Map<string, { hash: string; label: string; hint?: string }> {
  const wanted = new Map<string, { hash: string; label: string; hint?: string }>();
  const add = (hash: string, label: string, hint?: string) => {
    wanted.set(`${CONFIG_SECRET}${hash.slice('sha256:'.length, 'sha256:'.length + 16)}`, { hash, label, ...(hint ? { hint } : {}) });
  };
  for (const hash of c.secret_hashes ?? []) add(hash, 'from the configuration file');
  // Plaintext secrets (development only) are hashed like any other; the hint is their last characters.
  for (const secret of c.secrets ?? []) add(hashClientSecret(secret), 'from the configuration file (plaintext)', `…${secret.slice(-4)}`);
  return wanted;
}

async function syncSecrets(store: Clients, c: ClientConfig, now: string): Promise<void> {
  const wanted = new Map<string, StoredClientSecret>();
  for (const [id, s] of configClientSecrets(c)) wanted.set(id, { id, clientId: c.client_id, hash: s.hash, label: s.label, hint: s.hint, createdAt: now });
  const stored = await store.listClientSecrets(c.client_id);
  for (const s of stored) {
    if (s.id.startsWith(CONFIG_SECRET) && !wanted.has(s.id)) await store.deleteClientSecret(c.client_id, s.id);
  }
  const have = new Set(stored.map((s) => s.id));
  for (const [id, secret] of wanted) if (!have.has(id)) await store.putClientSecret(secret);
}

const SETTINGS: (keyof StoredClient)[] = [
  'name', 'redirectUris', 'defaultScopes', 'logoutUrl', 'initiateLoginUri', 'allOrganisations', 'responseTypes', 'source', 'ownerId', 'status',
];
const sameSettings = (a: StoredClient, b: StoredClient) =>
  SETTINGS.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
