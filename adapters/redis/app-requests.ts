import { LanyardError } from '../../src/errors.js';
import type { AppRequest, AppRequests } from '../store.js';
import { byKeys } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: clients, the organisation's requests, the organisations the client asked. ARGV: organisation id,
// client id, JSON. 0 when the client does not exist (checked in the same step as the write).
const PUT_REQUEST = `
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], '1')
return 1`;

// KEYS: the organisation's requests, the organisations the client asked. ARGV: organisation id, client id.
const DELETE_REQUEST = `
local n = redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[1])
return n`;

const json = (a: AppRequest) => JSON.stringify({
  clientId: a.clientId, organisationId: a.organisationId, requestedBy: a.requestedBy, requestedAt: a.requestedAt,
  note: a.note ?? undefined, status: a.status, answer: a.answer ?? undefined, answeredAt: a.answeredAt ?? undefined,
} satisfies AppRequest);

const toRequest = (s: string): AppRequest => {
  const a = JSON.parse(s) as AppRequest;
  return {
    clientId: a.clientId, organisationId: a.organisationId, requestedBy: a.requestedBy, requestedAt: a.requestedAt,
    note: a.note ?? undefined, status: a.status, answer: a.answer ?? undefined, answeredAt: a.answeredAt ?? undefined,
  };
};

const oldestFirst = byKeys<AppRequest>((a) => a.requestedAt, (a) => a.clientId);
const byOrganisation = byKeys<AppRequest>((a) => a.organisationId);

/**
 * Apps asking to be used by a school, in Redis under the {clients} tag (with the clients, so a client's
 * deletion removes its requests in the same script: adapters/redis/clients.ts). Both directions are kept, as
 * for the connections: a school's requests (the console), and the schools a client asked (the developer area).
 */
export function redisAppRequests({ client, keys }: RedisContext) {
  const k = keys.clients;
  const put = defineScript(client, 'lanyardPutAppRequest', PUT_REQUEST);
  const del = defineScript(client, 'lanyardDeleteAppRequest', DELETE_REQUEST);

  const appRequests: AppRequests = {
    async putAppRequest(a) {
      if ((await put([k.clients, k.appRequests(a.organisationId), k.appRequested(a.clientId)], [a.organisationId, a.clientId, json(a)])) === 0) {
        throw new LanyardError('not_found', `client ${a.clientId} does not exist`, 404, true);
      }
    },
    async findAppRequest(organisationId, clientId) {
      const s = await client.hget(k.appRequests(organisationId), clientId);
      return s ? toRequest(s) : undefined;
    },
    async deleteAppRequest(organisationId, clientId) {
      return (await del([k.appRequests(organisationId), k.appRequested(clientId)], [organisationId, clientId])) === 1;
    },
    async listAppRequests(organisationId) { return (await client.hvals(k.appRequests(organisationId))).map(toRequest).sort(oldestFirst); },
    async listClientAppRequests(clientId) {
      const organisations = await client.hkeys(k.appRequested(clientId));
      const found = await Promise.all(organisations.map((o) => appRequests.findAppRequest(o, clientId)));
      return found.filter((a): a is AppRequest => a !== undefined).sort(byOrganisation);
    },
  };

  const entries: EntryIO<'app_request'> = {
    async *read() {
      for (const clientId of (await client.hkeys(k.clients)).sort()) yield* await appRequests.listClientAppRequests(clientId);
    },
    write: (a) => appRequests.putAppRequest(a),
  };

  return { appRequests, entries };
}
