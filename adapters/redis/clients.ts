import { LanyardError } from '../../src/errors.js';
import type { Clients, StoredClient, StoredClientSecret } from '../store.js';
import { byKeys } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { defineScript, execPipeline, HGET_BOTH, TOUCH_LAST_USED } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: clients, created. ARGV: client id, JSON without createdAt, createdAt, 'keep' (a replaced client
// keeps its first createdAt, as SQLite's upsert) or 'replace' (import).
const PUT_CLIENT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[4] == 'replace' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) else redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[3]) end
return 1`;

// KEYS: clients, created, the client's secrets, the client's connected organisations, the client's logos,
// the organisations the client asked. ARGV: client id, the key of an organisation's connections and that of
// its app requests, each without the organisation id (same {clients} tag, so on Cluster too every key is in
// this slot). 1 when there was a client. Its connections and requests go with it.
const DELETE_CLIENT = `
local n = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
redis.call('DEL', KEYS[5])
for _, org in ipairs(redis.call('HKEYS', KEYS[4])) do redis.call('HDEL', ARGV[2] .. org, ARGV[1]) end
redis.call('DEL', KEYS[4])
for _, org in ipairs(redis.call('HKEYS', KEYS[6])) do redis.call('HDEL', ARGV[3] .. org, ARGV[1]) end
redis.call('DEL', KEYS[6])
return n`;

// KEYS: clients, the client's secrets (or logos). ARGV: client id, secret id (or hash), JSON. 0 when the
// client does not exist.
export const PUT_SECRET = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1`;

type ClientSettings = Omit<StoredClient, 'createdAt'>;

const settingsJson = (c: StoredClient) => JSON.stringify({
  clientId: c.clientId, name: c.name, redirectUris: c.redirectUris, defaultScopes: c.defaultScopes,
  logoutUrl: c.logoutUrl ?? undefined, responseTypes: c.responseTypes, source: c.source,
  ownerId: c.ownerId ?? undefined, status: c.status, description: c.description ?? undefined,
  homepageUrl: c.homepageUrl ?? undefined, logoUrl: c.logoUrl ?? undefined, logoHash: c.logoHash ?? undefined, reviewNote: c.reviewNote ?? undefined,
  initiateLoginUri: c.initiateLoginUri ?? undefined, allOrganisations: c.allOrganisations ? true : undefined,
  updatedAt: c.updatedAt,
} satisfies ClientSettings);

const toClient = (json: string, createdAt: string | null | undefined): StoredClient => {
  const c = JSON.parse(json) as ClientSettings;
  return {
    clientId: c.clientId, name: c.name, redirectUris: c.redirectUris, defaultScopes: c.defaultScopes,
    logoutUrl: c.logoutUrl ?? undefined, responseTypes: c.responseTypes, source: c.source,
    ownerId: c.ownerId ?? undefined, status: c.status, description: c.description ?? undefined,
    homepageUrl: c.homepageUrl ?? undefined, logoUrl: c.logoUrl ?? undefined, logoHash: c.logoHash ?? undefined, reviewNote: c.reviewNote ?? undefined,
    initiateLoginUri: c.initiateLoginUri ?? undefined, allOrganisations: c.allOrganisations ? true : undefined,
    createdAt: createdAt ?? c.updatedAt, updatedAt: c.updatedAt,
  };
};

const secretJson = (s: StoredClientSecret) => JSON.stringify({
  id: s.id, clientId: s.clientId, hash: s.hash, label: s.label, hint: s.hint ?? undefined, createdAt: s.createdAt,
  lastUsedAt: s.lastUsedAt ?? undefined, expiresAt: s.expiresAt ?? undefined,
});

const toSecret = (json: string): StoredClientSecret => {
  const s = JSON.parse(json) as StoredClientSecret;
  return {
    id: s.id, clientId: s.clientId, hash: s.hash, label: s.label, hint: s.hint ?? undefined, createdAt: s.createdAt,
    lastUsedAt: s.lastUsedAt ?? undefined, expiresAt: s.expiresAt ?? undefined,
  };
};

const byClientId = byKeys<StoredClient>((c) => c.clientId);
const oldestFirst = byKeys<StoredClientSecret>((s) => s.createdAt, (s) => s.id);

/** Clients and their secrets in Redis, under the {clients} tag: a client's secrets go with it. */
export function redisClients({ client, keys }: RedisContext) {
  const k = keys.clients;
  const putClient = defineScript(client, 'lanyardPutClient', PUT_CLIENT);
  const deleteClient = defineScript(client, 'lanyardDeleteClient', DELETE_CLIENT);
  const putSecret = defineScript(client, 'lanyardPutClientSecret', PUT_SECRET);
  const touchSecret = defineScript(client, 'lanyardTouchClientSecret', TOUCH_LAST_USED);
  const clientAndCreated = defineScript(client, 'lanyardFindClient', HGET_BOTH);

  async function listClients(): Promise<StoredClient[]> {
    const [all, created] = (await execPipeline(client.multi().hgetall(k.clients).hgetall(k.created))) as Record<string, string>[];
    return Object.entries(all!).map(([id, json]) => toClient(json, created![id])).sort(byClientId);
  }

  const clients: Clients = {
    async putClient(c) { await putClient([k.clients, k.created], [c.clientId, settingsJson(c), c.createdAt, 'keep']); },
    async findClient(clientId) {
      const [json, createdAt] = (await clientAndCreated([k.clients, k.created], [clientId])) as (string | null)[];
      return json ? toClient(json, createdAt) : undefined;
    },
    listClients,
    async deleteClient(clientId) {
      return (await deleteClient([k.clients, k.created, k.secrets(clientId), k.connected(clientId), k.logos(clientId), k.appRequested(clientId)], [
        clientId, k.connections(''), k.appRequests(''),
      ])) === 1;
    },
    async putClientSecret(secret) {
      if ((await putSecret([k.clients, k.secrets(secret.clientId)], [secret.clientId, secret.id, secretJson(secret)])) === 0) {
        throw new LanyardError('not_found', `client ${secret.clientId} does not exist`, 404, true);
      }
    },
    async listClientSecrets(clientId) { return (await client.hvals(k.secrets(clientId))).map(toSecret).sort(oldestFirst); },
    async deleteClientSecret(clientId, secretId) { return (await client.hdel(k.secrets(clientId), secretId)) === 1; },
    async touchClientSecret(clientId, secretId, at) { await touchSecret([k.secrets(clientId)], [secretId, at]); },
  };

  const clientEntries: EntryIO<'client'> = {
    async *read() { yield* await listClients(); },
    count: () => client.hlen(k.clients),
    async write(c) { await putClient([k.clients, k.created], [c.clientId, settingsJson(c), c.createdAt, 'replace']); },
  };
  const secretEntries: EntryIO<'client_secret'> = {
    async *read() {
      for (const c of await listClients()) yield* await clients.listClientSecrets(c.clientId);
    },
    async count() {
      const ids = (await client.hkeys(k.clients));
      const lens = await Promise.all(ids.map((id) => client.hlen(k.secrets(id))));
      return lens.reduce((a, b) => a + b, 0);
    },
    write: (secret) => clients.putClientSecret(secret),
  };

  return { clients, listClients, entries: { clients: clientEntries, secrets: secretEntries } };
}
