import { LanyardError } from '../../src/errors.js';
import { type ClassLink, type ClassLinks, ENDED_CLASS_LINKS_KEPT_MS } from '../store.js';
import { byKeys } from '../store/collation.js';
import { nativeTtlMs, type RedisContext } from './context.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: orgs, the organisation's classes, the link, its code, the class's links, the links by end.
// ARGV: organisation id, class id, link id, link JSON, created (epoch ms), ended (epoch ms), Redis's own
// lifetime (ms). 0 when the organisation, -1 when the class (of that organisation) does not exist.
const PUT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('SISMEMBER', KEYS[2], ARGV[2]) == 0 then return -1 end
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[7])
redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[7])
redis.call('ZADD', KEYS[5], ARGV[5], ARGV[3])
redis.call('ZADD', KEYS[6], ARGV[6], ARGV[3])
return 1`;

// KEYS: the code. ARGV: the prefix of a link's key. The link JSON the code names, or false.
const BY_CODE = `
local id = redis.call('GET', KEYS[1])
if not id then return false end
return redis.call('GET', ARGV[1] .. id)`;

// KEYS: the link, the links by end. ARGV: organisation id, revoked at (ISO 8601), at (epoch ms), the prefix of
// a code's key, how long an ended link is kept (ms), when the link expires (epoch ms), the time now (epoch ms:
// Redis's own lifetime, PX, is counted from it). 1 when revoked; 0 when there is no such live link.
const REVOKE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local link = cjson.decode(raw)
local expires = tonumber(ARGV[6])
if link.organisationId ~= ARGV[1] or link.revokedAt or expires <= tonumber(ARGV[3]) then return 0 end
link.revokedAt = ARGV[2]
local keep = tonumber(ARGV[3]) + tonumber(ARGV[5]) - tonumber(ARGV[7])
if keep < 1 then keep = 1 end
redis.call('SET', KEYS[1], cjson.encode(link), 'PX', keep)
redis.call('PEXPIRE', ARGV[4] .. link.codeHash, keep)
redis.call('ZADD', KEYS[2], ARGV[3], link.id)
return 1`;

// KEYS: the class's links. ARGV: the prefix of a link's key. The links' JSON, newest first; members whose
// link is gone (Redis expired it, or the sweep purged it) are removed.
const LIST = `
local out = {}
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, -1)) do
  local raw = redis.call('GET', ARGV[1] .. id)
  if raw then table.insert(out, raw) else redis.call('ZREM', KEYS[1], id) end
end
return out`;

// KEYS: the links by end. ARGV: before (epoch ms), most to remove, the prefixes of a link's, a code's and a
// class's links key. Deletes links that ended before `before`, with their code and class entries; how many.
const PURGE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do
  local raw = redis.call('GET', ARGV[3] .. id)
  if raw then
    local link = cjson.decode(raw)
    redis.call('DEL', ARGV[3] .. id, ARGV[4] .. link.codeHash)
    redis.call('ZREM', ARGV[5] .. link.organisationId .. ':' .. link.classId, id)
  end
  redis.call('ZREM', KEYS[1], id)
end
return #ids`;

/** Links removed by one script run: a purge of many is several short scripts, not one long one. */
const PURGE_BATCH = 500;

const json = (l: ClassLink) => JSON.stringify({
  id: l.id, organisationId: l.organisationId, classId: l.classId, codeHash: l.codeHash, createdAt: l.createdAt,
  expiresAt: l.expiresAt, createdBy: { id: l.createdBy.id, username: l.createdBy.username },
  ...(l.revokedAt === undefined ? {} : { revokedAt: l.revokedAt }),
} satisfies ClassLink);

const toClassLink = (raw: string): ClassLink => {
  const l = JSON.parse(raw) as ClassLink;
  return {
    id: l.id, organisationId: l.organisationId, classId: l.classId, codeHash: l.codeHash, createdAt: l.createdAt,
    expiresAt: l.expiresAt, createdBy: { id: l.createdBy.id, username: l.createdBy.username },
    ...(l.revokedAt === undefined ? {} : { revokedAt: l.revokedAt }),
  };
};

const endOf = (l: ClassLink) => Math.min(Date.parse(l.expiresAt), l.revokedAt === undefined ? Infinity : Date.parse(l.revokedAt));
const liveAt = (l: ClassLink, at: number) => l.revokedAt === undefined && Date.parse(l.expiresAt) > at;
const newestFirst = byKeys<ClassLink>((l) => -Date.parse(l.createdAt), (l) => l.id);

/**
 * Class links in Redis, under the {directory} tag with the classes they open (a put checks the class in
 * the same script). A link is one JSON value and its code one key naming it, both expired by Redis a day
 * after the link ends; a class's links and every link by its end are sorted sets, pruned by the list and
 * the sweep. Revoking is one script, so it takes effect on every instance at once.
 */
export function redisClassLinks({ client, keys, now }: RedisContext) {
  const k = keys.classLinks;
  const put = defineScript(client, 'lanyardPutClassLink', PUT);
  const byCode = defineScript(client, 'lanyardClassLinkByCode', BY_CODE);
  const revoke = defineScript(client, 'lanyardRevokeClassLink', REVOKE);
  const list = defineScript(client, 'lanyardListClassLinks', LIST);
  const purge = defineScript(client, 'lanyardPurgeClassLinks', PURGE);

  const purgeBefore = async (before: number) => {
    let removed = 0;
    for (;;) {
      const n = Number(await purge([k.byEnd], [before, PURGE_BATCH, k.linkPrefix, k.codePrefix, k.ofClassPrefix]));
      removed += n;
      if (n < PURGE_BATCH) return removed;
    }
  };

  const classLinks: ClassLinks = {
    async putClassLink(link) {
      const ended = endOf(link);
      const done = await put(
        [keys.directory.orgs, keys.roster.classesOf(link.organisationId), k.link(link.id), k.code(link.codeHash), k.ofClass(link.organisationId, link.classId), k.byEnd],
        [link.organisationId, link.classId, link.id, json(link), Date.parse(link.createdAt), ended, nativeTtlMs(ended + ENDED_CLASS_LINKS_KEPT_MS, now())],
      );
      if (done === 0) throw new LanyardError('not_found', `organisation ${link.organisationId} does not exist`, 404, true);
      if (done === -1) throw new LanyardError('not_found', `class ${link.classId} does not exist`, 404, true);
    },
    async findLiveClassLink(codeHash, at) {
      const raw = (await byCode([k.code(codeHash)], [k.linkPrefix])) as string | null;
      const link = raw ? toClassLink(raw) : undefined;
      return link && link.codeHash === codeHash && liveAt(link, Date.parse(at)) ? link : undefined;
    },
    async findClassLink(organisationId, id) {
      const raw = await client.get(k.link(id));
      const link = raw ? toClassLink(raw) : undefined;
      return link?.organisationId === organisationId ? link : undefined;
    },
    async listClassLinks(organisationId, classId, at) {
      const t = Date.parse(at);
      const raws = (await list([k.ofClass(organisationId, classId)], [k.linkPrefix])) as string[];
      return raws.map(toClassLink).filter((l) => l.organisationId === organisationId && liveAt(l, t)).sort(newestFirst);
    },
    async revokeClassLink(organisationId, id, at) {
      const link = await classLinks.findClassLink(organisationId, id);
      if (!link) return false;
      const t = Date.parse(at);
      return (await revoke([k.link(id), k.byEnd], [
        organisationId, at, t, k.codePrefix, ENDED_CLASS_LINKS_KEPT_MS, Date.parse(link.expiresAt), now(),
      ])) === 1;
    },
    purgeClassLinksBefore: (before) => purgeBefore(Date.parse(before)),
  };

  const entries: EntryIO<'class_link'> = {
    async *read() {
      const t = now();
      const ids = (await client.zrangebyscore(k.byEnd, `(${t}`, '+inf')).sort();
      for (const id of ids) {
        const raw = await client.get(k.link(id));
        const link = raw ? toClassLink(raw) : undefined;
        if (link && liveAt(link, t)) yield link;
      }
    },
    async write(link) {
      if (liveAt(link, now())) await classLinks.putClassLink(link);
    },
  };

  return { classLinks, entries, sweep: () => purgeBefore(now() - ENDED_CLASS_LINKS_KEPT_MS) };
}
