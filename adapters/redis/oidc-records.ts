import type { OidcPayload, OidcRecords } from '../store.js';
import { nativeTtlMs, type RedisContext } from './context.js';
import { defineScript, execPipeline } from './scripts.js';
import { scanHash, scanKeys } from './scan.js';
import type { EntryIO } from './transfer.js';

// KEYS: record, uid index, user-code index. ARGV: id, payload, expiresAt, native ttl, indexed fields (JSON),
// consumed ('1' or ''). Replaces everything, lifetime included; index entries of the old payload go.
const UPSERT = `
local id, ix = ARGV[1], cjson.decode(ARGV[5])
local old = redis.call('HMGET', KEYS[1], 'uid', 'userCode')
if old[1] and old[1] ~= ix.uid and redis.call('HGET', KEYS[2], old[1]) == id then redis.call('HDEL', KEYS[2], old[1]) end
if old[2] and old[2] ~= ix.userCode and redis.call('HGET', KEYS[3], old[2]) == id then redis.call('HDEL', KEYS[3], old[2]) end
redis.call('DEL', KEYS[1])
local fields = {'payload', ARGV[2], 'expiresAt', ARGV[3]}
if ix.uid then
  table.insert(fields, 'uid'); table.insert(fields, ix.uid)
  redis.call('HSET', KEYS[2], ix.uid, id)
end
if ix.userCode then
  table.insert(fields, 'userCode'); table.insert(fields, ix.userCode)
  redis.call('HSET', KEYS[3], ix.userCode, id)
end
if ix.grantId then table.insert(fields, 'grantId'); table.insert(fields, ix.grantId) end
if ix.accountId then table.insert(fields, 'accountId'); table.insert(fields, ix.accountId) end
if ARGV[6] == '1' then table.insert(fields, 'consumed'); table.insert(fields, '1') end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

// KEYS: record. ARGV: now, epoch second. Compare-and-set: only a live, unconsumed record; the payload text
// gets "consumed" appended (JSON.parse keeps the last of a repeated key), so nothing else is re-encoded.
const CONSUME = `
local v = redis.call('HMGET', KEYS[1], 'payload', 'expiresAt', 'consumed')
if not v[1] or tonumber(v[2]) <= tonumber(ARGV[1]) or v[3] then return 0 end
local p = v[1]
if p == '{}' then p = '{"consumed":' .. ARGV[2] .. '}' else p = string.sub(p, 1, -2) .. ',"consumed":' .. ARGV[2] .. '}' end
redis.call('HSET', KEYS[1], 'payload', p, 'consumed', '1')
return 1`;

// KEYS: record, uid index, user-code index. ARGV: id, condition ('always', 'grantId', 'accountId',
// 'clientId' or 'expired'), its value (the grant, account or client id, or now). Removes the record and its
// index entries; 1 when it removed one. The client is not a field of its own: it is read from the payload.
const REMOVE = `
local v = redis.call('HMGET', KEYS[1], 'uid', 'userCode', 'grantId', 'expiresAt', 'accountId')
if not v[4] then return 0 end
if ARGV[2] == 'clientId' then
  local ok, p = pcall(cjson.decode, redis.call('HGET', KEYS[1], 'payload') or '')
  if not ok or type(p) ~= 'table' or p.clientId ~= ARGV[3] then return 0 end
end
if ARGV[2] == 'grantId' and v[3] ~= ARGV[3] then return 0 end
if ARGV[2] == 'accountId' and v[5] ~= ARGV[3] then return 0 end
if ARGV[2] == 'expired' and tonumber(v[4]) > tonumber(ARGV[3]) then return 0 end
if v[1] and redis.call('HGET', KEYS[2], v[1]) == ARGV[1] then redis.call('HDEL', KEYS[2], v[1]) end
if v[2] and redis.call('HGET', KEYS[3], v[2]) == ARGV[1] then redis.call('HDEL', KEYS[3], v[2]) end
return redis.call('DEL', KEYS[1])`;

// KEYS: a uid or user-code index, then the record of each entry. ARGV: now, the record field, then
// (value, id) per entry. Drops entries whose record is gone (Redis expired it), expired or re-indexed.
const PRUNE_INDEX = `
local now, field = tonumber(ARGV[1]), ARGV[2]
for i = 2, #KEYS do
  local value, id = ARGV[2 * i - 1], ARGV[2 * i]
  if redis.call('HGET', KEYS[1], value) == id then
    local r = redis.call('HMGET', KEYS[i], field, 'expiresAt')
    if r[1] ~= value or not r[2] or tonumber(r[2]) <= now then redis.call('HDEL', KEYS[1], value) end
  end
end
return 0`;

// KEYS: a grant's or an account's set. ARGV: member, native ttl. The set lives at least as long as its
// longest member.
const ADD_TO_OWNER = `
redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

const PRUNE_BATCH = 100;

type Indexed = 'uid' | 'userCode' | 'grantId' | 'accountId';

/** A set of the records that share a grant, or an account (the records' `grantId` / `accountId` field). */
export interface Owner { field: 'grantId' | 'accountId'; id: string }

/**
 * Protocol records in Redis: a hash per record with Redis's own expiry, uid and user-code indexes per model,
 * and a set per grant and per account (owner sets). A record is in other hash slots than its sets, so a set
 * is added to after the record is written and members leave it only through `detach`; a stale member is
 * harmless meanwhile, revocation checks each record's grantId / accountId.
 */
export function redisOidcRecords({ client, keys, now }: RedisContext) {
  const upsert = defineScript(client, 'lanyardOidcUpsert', UPSERT);
  const consume = defineScript(client, 'lanyardOidcConsume', CONSUME);
  const remove = defineScript(client, 'lanyardOidcRemove', REMOVE);
  const pruneIndex = defineScript(client, 'lanyardOidcPruneIndex', PRUNE_INDEX);
  const addToOwner = defineScript(client, 'lanyardOidcAddToOwner', ADD_TO_OWNER);
  const ownerKey = (o: Owner) => (o.field === 'grantId' ? keys.grant(o.id) : keys.account(o.id));
  const recordKeys = (model: string, id: string) =>
    [keys.oidc.record(model, id), keys.oidc.index(model, 'uid'), keys.oidc.index(model, 'userCode')];

  const live = (payload: string | null | undefined, expiresAt: string | null | undefined, t = now()) =>
    payload && Number(expiresAt) > t ? (JSON.parse(payload) as OidcPayload) : undefined;

  async function write(model: string, id: string, payload: OidcPayload, expiresAt: number): Promise<void> {
    const t = now();
    const indexed: Partial<Record<Indexed, string>> = {};
    for (const f of ['uid', 'userCode', 'grantId'] as const) if (payload[f] != null) indexed[f] = String(payload[f]);
    if (typeof payload.accountId === 'string' && payload.accountId) indexed.accountId = payload.accountId;
    const ttl = nativeTtlMs(expiresAt, t);
    // Sent together, answered in one round trip rather than three. Redis runs one connection's commands in
    // the order sent, so the record is written before it joins its sets (what `detach` relies on). Should
    // the record's script fail, a set may hold it without its record, which is harmless (see above); the
    // write still fails. (An ioredis pipeline would group them too, but costs more CPU than the commands.)
    const writes = [upsert(recordKeys(model, id), [
      id, JSON.stringify(payload), String(expiresAt), ttl, JSON.stringify(indexed), payload.consumed != null ? '1' : '',
    ])];
    for (const field of ['grantId', 'accountId'] as const) {
      const owner = indexed[field];
      if (owner) writes.push(addToOwner([ownerKey({ field, id: owner })], [JSON.stringify([model, id]), ttl]));
    }
    await Promise.all(writes);
  }

  async function findByIndex(model: string, field: 'uid' | 'userCode', value: string) {
    const id = await client.hget(keys.oidc.index(model, field), value);
    if (id === null) return undefined;
    const [payload, expiresAt, indexed] = await client.hmget(keys.oidc.record(model, id), 'payload', 'expiresAt', field);
    return indexed === value ? live(payload, expiresAt) : undefined;
  }

  /** Of an owner set's members, those whose record is live and still under the owner, with when it ends. */
  async function underOwner(owner: Owner, members: string[]): Promise<Map<string, number>> {
    const t = now();
    const read = client.pipeline();
    for (const member of members) {
      const [model, id] = JSON.parse(member) as [string, string];
      read.hmget(keys.oidc.record(model, id), owner.field, 'expiresAt');
    }
    const rows = (await execPipeline(read)) as (string | null)[][];
    return new Map(members.flatMap((m, i) => {
      const [o, expiresAt] = rows[i]!;
      return o === owner.id && Number(expiresAt) > t ? [[m, Number(expiresAt)] as const] : [];
    }));
  }

  /**
   * Takes members out of an owner set, then looks again and puts back any whose record is (again) under
   * the owner: an upsert writes its record before adding it to the set, so one running meanwhile either
   * adds it after the removal or is seen by the second look. No record is ever left out of its sets.
   */
  async function detach(owner: Owner, members: string[]): Promise<void> {
    if (!members.length) return;
    const set = ownerKey(owner);
    await client.srem(set, ...members);
    const t = now();
    for (const [member, expiresAt] of await underOwner(owner, members)) await addToOwner([set], [member, nativeTtlMs(expiresAt, t)]);
  }

  /** Drops an owner set's members whose record is gone, expired or under another owner now. */
  async function pruneOwner(owner: Owner): Promise<void> {
    const members = await client.smembers(ownerKey(owner));
    const live = await underOwner(owner, members);
    await detach(owner, members.filter((m) => !live.has(m)));
  }

  /** Removes every record of an owner set (each only if still under the owner); returns how many. */
  async function revokeOwned(owner: Owner): Promise<number> {
    // Records of several models, so several hash slots: each removed by its own script call.
    const members = await client.smembers(ownerKey(owner));
    if (!members.length) return 0;
    const del = client.pipeline();
    for (const member of members) {
      const [model, id] = JSON.parse(member) as [string, string];
      remove.queue(del, recordKeys(model, id), [id, owner.field, owner.id]);
    }
    const removed = (await execPipeline(del)).reduce<number>((n, r) => n + Number(r), 0);
    await detach(owner, members);
    return removed;
  }

  /**
   * Removes every record whose payload names the client. Deleting an app is rare, so this is a SCAN over
   * every record under the prefix (bounded steps, never KEYS) rather than a per-client index kept up on every
   * write; it also finds records written before this method existed. Each removal checks the payload again.
   */
  async function revokeByClientId(clientId: string): Promise<number> {
    let removed = 0;
    for await (const batch of scanKeys(client, keys.match.records, true)) {
      const read = client.pipeline();
      for (const key of batch) read.hget(key, 'payload');
      const payloads = (await execPipeline(read)) as (string | null)[];
      const del = client.pipeline();
      let queued = 0;
      for (const [i, key] of batch.entries()) {
        const parsed = keys.parse(key);
        if (parsed?.kind !== 'record' || clientIdOf(payloads[i]) !== clientId) continue;
        remove.queue(del, recordKeys(parsed.model, parsed.id), [parsed.id, 'clientId', clientId]);
        queued += 1;
      }
      if (queued) removed += (await execPipeline(del)).reduce<number>((n, r) => n + Number(r), 0);
    }
    return removed;
  }

  const records: OidcRecords = {
    upsert: (model, id, payload, expiresIn) => write(model, id, payload, now() + expiresIn * 1000),
    async find(model, id) {
      const [payload, expiresAt] = await client.hmget(keys.oidc.record(model, id), 'payload', 'expiresAt');
      return live(payload, expiresAt);
    },
    findByUid: (model, uid) => findByIndex(model, 'uid', uid),
    findByUserCode: (model, userCode) => findByIndex(model, 'userCode', userCode),
    async consume(model, id) {
      const t = now();
      return (await consume([keys.oidc.record(model, id)], [t, Math.floor(t / 1000)])) === 1;
    },
    async destroy(model, id) { await remove(recordKeys(model, id), [id, 'always', '']); },
    async revokeByGrantId(grantId) { await revokeOwned({ field: 'grantId', id: grantId }); },
    revokeByAccountId: (accountId) => revokeOwned({ field: 'accountId', id: accountId }),
    revokeByClientId,
  };

  /** Removes those of the records found that are expired on the clock; returns how many it removed. */
  async function sweepRecords(found: { model: string; id: string }[]): Promise<number> {
    if (!found.length) return 0;
    const t = now();
    const read = client.pipeline();
    for (const { model, id } of found) read.hget(keys.oidc.record(model, id), 'expiresAt');
    const expiry = await execPipeline(read);
    const expired = found.filter((_, i) => expiry[i] !== null && Number(expiry[i]) <= t);
    if (!expired.length) return 0;
    const del = client.pipeline();
    for (const { model, id } of expired) remove.queue(del, recordKeys(model, id), [id, 'expired', t]);
    return (await execPipeline(del)).reduce<number>((n, r) => n + Number(r), 0);
  }

  /** Drops a model's index entries that lead nowhere (their record expired or was re-indexed). */
  async function pruneIndexes(model: string, field: 'uid' | 'userCode'): Promise<void> {
    const index = keys.oidc.index(model, field);
    for await (const batch of scanHash(client, index)) {
      for (let i = 0; i < batch.length; i += PRUNE_BATCH) {
        const part = batch.slice(i, i + PRUNE_BATCH);
        await pruneIndex([index, ...part.map(([, id]) => keys.oidc.record(model, id))], [now(), field, ...part.flat()]);
      }
    }
  }

  const entries: EntryIO<'oidc'> = {
    async *read() {
      for await (const batch of scanKeys(client, keys.match.records, true)) {
        const t = now();
        const read = client.pipeline();
        for (const key of batch) read.hmget(key, 'payload', 'expiresAt');
        const rows = (await execPipeline(read)) as (string | null)[][];
        for (const [i, key] of batch.entries()) {
          const parsed = keys.parse(key);
          const [text, expiresAt] = rows[i]!;
          const payload = live(text, expiresAt, t);
          if (parsed?.kind === 'record' && payload) yield { model: parsed.model, id: parsed.id, payload, expiresAt: Number(expiresAt) };
        }
      }
    },
    async write({ model, id, payload, expiresAt }) {
      if (expiresAt > now()) await write(model, id, payload, expiresAt);
    },
  };

  return { records, sweepRecords, pruneIndexes, pruneOwner, entries };
}

/** The `clientId` of a stored payload, if it names one. */
function clientIdOf(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const { clientId } = JSON.parse(text) as OidcPayload;
    return typeof clientId === 'string' ? clientId : undefined;
  } catch {
    return undefined;
  }
}
