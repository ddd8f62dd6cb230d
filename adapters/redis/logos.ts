import { LanyardError } from '../../src/errors.js';
import type { ClientLogos, StoredClient, StoredLogo } from '../store.js';
import type { RedisContext } from './context.js';
import { PUT_SECRET } from './clients.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: the client's logos. ARGV: the hash to keep ('' for none). How many were removed.
const PRUNE_LOGOS = `
local n = 0
for _, hash in ipairs(redis.call('HKEYS', KEYS[1])) do
  if hash ~= ARGV[1] then n = n + redis.call('HDEL', KEYS[1], hash) end
end
return n`;

const logoJson = (l: StoredLogo) => JSON.stringify({
  clientId: l.clientId, hash: l.hash, contentType: l.contentType, bytes: l.bytes.toString('base64'), sourceUrl: l.sourceUrl, fetchedAt: l.fetchedAt,
});

const toLogo = (json: string): StoredLogo => {
  const l = JSON.parse(json) as Omit<StoredLogo, 'bytes'> & { bytes: string };
  return { clientId: l.clientId, hash: l.hash, contentType: l.contentType, bytes: Buffer.from(l.bytes, 'base64'), sourceUrl: l.sourceUrl, fetchedAt: l.fetchedAt };
};

/**
 * Apps' fetched logos in Redis, beside their client under the {clients} tag: written only while the client
 * exists (one script), deleted with it (adapters/redis/clients.ts).
 */
export function redisLogos({ client, keys }: RedisContext, listClients: () => Promise<StoredClient[]>) {
  const k = keys.clients;
  const put = defineScript(client, 'lanyardPutClientLogo', PUT_SECRET);
  const prune = defineScript(client, 'lanyardPruneClientLogos', PRUNE_LOGOS);

  const logos: ClientLogos = {
    async putClientLogo(logo) {
      if ((await put([k.clients, k.logos(logo.clientId)], [logo.clientId, logo.hash, logoJson(logo)])) === 0) {
        throw new LanyardError('not_found', `client ${logo.clientId} does not exist`, 404, true);
      }
    },
    async findClientLogo(clientId, hash) {
      const json = await client.hget(k.logos(clientId), hash);
      return json ? toLogo(json) : undefined;
    },
    async pruneClientLogos(clientId, keepHash) { return Number(await prune([k.logos(clientId)], [keepHash ?? ''])); },
  };

  const entries: EntryIO<'client_logo'> = {
    async *read() {
      for (const c of await listClients()) {
        const all = await client.hvals(k.logos(c.clientId));
        yield* all.map(toLogo).sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
      }
    },
    write: (logo) => logos.putClientLogo(logo),
  };

  return { logos, entries };
}
