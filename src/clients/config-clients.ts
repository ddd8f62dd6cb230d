import type { Clients, StoredClient, StoredClientSecret } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { ClientConfig, OrganisationSeed } from '../config/schema.js';
import { appSeedClientId } from '../config/file.js';
import { ConfigError } from '../errors.js';
import { LANYARD_CLIENT_ID } from './builtin-clients.js';
import { hashClientSecret } from './client-secret.js';
import { RESPONSE_TYPES_DEFAULT } from '../config/defaults.js';

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
  store: Clients, clients: ClientConfig[], clock: Clock, organisations: OrganisationSeed[] = [],
): Promise<ConfigClientsResult> {
  const now = clock.now().toISOString();
  const listed = listedClientIds(organisations);
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
      ...configClientSettings(c, listed),
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

/** What the store holds of a file client, as the file gives it (src/clients/config-revision.ts hashes the same). */
export function configClientSettings(c: ClientConfig, listed: Set<string>) {
  return {
    clientId: c.client_id,
    name: c.name,
    redirectUris: c.redirect_uris,
    defaultScopes: c.default_scopes ?? [],
    logoutUrl: c.logout_url,
    initiateLoginUri: c.initiate_login_uri,
    // A client no organisation lists in `apps` is connected to every school (as before connections existed).
    allOrganisations: listed.has(c.client_id) ? undefined : true,
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
