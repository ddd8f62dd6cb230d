import { LanyardError } from '../../src/errors.js';
import type { AppConnection, Connections } from '../store.js';
import { byKeys } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: clients, the organisation's connections, the client's connected organisations. ARGV: organisation
// id, client id, JSON. 0 when the client does not exist (checked in the same step as the write).
const PUT_CONNECTION = `
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], '1')
return 1`;

// KEYS: the organisation's connections, the client's connected organisations. ARGV: organisation id, client id.
const DELETE_CONNECTION = `
local n = redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[1])
return n`;

const json = (c: AppConnection) => JSON.stringify({
  organisationId: c.organisationId, clientId: c.clientId, userTypes: c.userTypes ?? undefined,
  position: c.position, source: c.source, createdAt: c.createdAt,
} satisfies AppConnection);

const toConnection = (s: string): AppConnection => {
  const c = JSON.parse(s) as AppConnection;
  return {
    organisationId: c.organisationId, clientId: c.clientId, userTypes: c.userTypes ?? undefined,
    position: c.position, source: c.source, createdAt: c.createdAt,
  };
};

const inSchoolOrder = byKeys<AppConnection>((c) => c.position, (c) => c.clientId);
const byOrganisation = byKeys<AppConnection>((c) => c.organisationId);

/**
 * The apps each school uses, in Redis under the {clients} tag (with the clients, so a client's deletion
 * removes its connections in the same script: adapters/redis/clients.ts). Both directions are kept:
 * an organisation's connections (the dashboard), and the organisations a client is connected to.
 */
export function redisConnections({ client, keys }: RedisContext) {
  const k = keys.clients;
  const put = defineScript(client, 'lanyardPutConnection', PUT_CONNECTION);
  const del = defineScript(client, 'lanyardDeleteConnection', DELETE_CONNECTION);

  const connections: Connections = {
    async putConnection(c) {
      if ((await put([k.clients, k.connections(c.organisationId), k.connected(c.clientId)], [c.organisationId, c.clientId, json(c)])) === 0) {
        throw new LanyardError('not_found', `client ${c.clientId} does not exist`, 404, true);
      }
    },
    async deleteConnection(organisationId, clientId) {
      return (await del([k.connections(organisationId), k.connected(clientId)], [organisationId, clientId])) === 1;
    },
    async findConnection(organisationId, clientId) {
      const s = await client.hget(k.connections(organisationId), clientId);
      return s ? toConnection(s) : undefined;
    },
    async listConnections(organisationId) {
      return (await client.hvals(k.connections(organisationId))).map(toConnection).sort(inSchoolOrder);
    },
    async listClientConnections(clientId) {
      const organisations = await client.hkeys(k.connected(clientId));
      const found = await Promise.all(organisations.map((o) => connections.findConnection(o, clientId)));
      return found.filter((c): c is AppConnection => c !== undefined).sort(byOrganisation);
    },
  };

  const entries: EntryIO<'connection'> = {
    async *read() {
      for (const clientId of await client.hkeys(k.clients)) yield* await connections.listClientConnections(clientId);
    },
    write: (c) => connections.putConnection(c),
  };

  return { connections, entries };
}
