/**
 * The audit trail's scripts (key layout: key-layout.ts, `{audit}`). Each gets KEYS[1] = the events hash (whose
 * tag routes it) and ARGV[1] = the tag's prefix (`P:{audit}:`), from which it reaches a school's, a person's,
 * an app's and a day's keys: all share the tag. An event is JSON of AuditEvent; its score is `at` in epoch
 * milliseconds, given beside it (Lua does not parse dates).
 */

/**
 * The shared part: indexing an event under its id, counting it in (or out of) its day's use, and removing a
 * stored event with everything that points to it. The usage rule is adapters/store/audit-usage.ts usageOf's:
 * a sign-in to `m:<method>` and `a:<client_id>`, a launch to `a:<client_id>`, a failed sign-in to `f`.
 */
const COMMON = `
local p = ARGV[1]
local events = KEYS[1]
local function index(e, id, score)
  local o = e.organisationId
  redis.call('ZADD', p .. 'by-time', score, id)
  redis.call('ZADD', p .. 'org:' .. o, score, id)
  if e.actorId then redis.call('ZADD', p .. 'user:' .. o .. ':' .. e.actorId, score, id) end
  if e.subjectId then redis.call('ZADD', p .. 'user:' .. o .. ':' .. e.subjectId, score, id) end
  if e.clientId then redis.call('ZADD', p .. 'client:' .. o .. ':' .. e.clientId, score, id) end
end
local function bump(key, field, n)
  if redis.call('HINCRBY', key, field, n) <= 0 then redis.call('HDEL', key, field) end
end
local function use(e, day, n)
  local key = p .. 'usage:' .. e.organisationId .. ':' .. day
  if e.kind == 'sign_in' and e.method then bump(key, 'm:' .. e.method, n) end
  if (e.kind == 'sign_in' or e.kind == 'launch') and e.clientId then bump(key, 'a:' .. e.clientId, n) end
  if e.kind == 'sign_in_failed' then bump(key, 'f', n) end
end
local function remove(id)
  local json = redis.call('HGET', events, id)
  redis.call('ZREM', p .. 'by-time', id)
  if not json then return 0 end
  local e = cjson.decode(json)
  local o = e.organisationId
  redis.call('HDEL', events, id)
  redis.call('ZREM', p .. 'org:' .. o, id)
  if e.actorId then redis.call('ZREM', p .. 'user:' .. o .. ':' .. e.actorId, id) end
  if e.subjectId then redis.call('ZREM', p .. 'user:' .. o .. ':' .. e.subjectId, id) end
  if e.clientId then redis.call('ZREM', p .. 'client:' .. o .. ':' .. e.clientId, id) end
  if e.aggregate and redis.call('HGET', p .. 'aggregates:' .. o, e.aggregate) == id then
    redis.call('HDEL', p .. 'aggregates:' .. o, e.aggregate)
  end
  use(e, string.sub(e.at, 1, 10), -e.count)
  return 1
end
`;

/**
 * ARGV after the prefix: pairs of (event JSON, score), in order. An event whose id is stored already is
 * skipped (a batch written again after a lost reply counts nothing twice). One with an aggregate key whose
 * row exists merges into it: count summed, `at` (and the row's scores) the later, the row's use counted on
 * its day as SQLite's GROUP BY would count it. All of it atomic.
 */
export const APPEND_AUDIT = `${COMMON}
for i = 2, #ARGV, 2 do
  local json, score = ARGV[i], tonumber(ARGV[i + 1])
  local e = cjson.decode(json)
  if redis.call('HEXISTS', events, e.id) == 0 then
    local merged = false
    if e.aggregate then
      local aggregates = p .. 'aggregates:' .. e.organisationId
      local id = redis.call('HGET', aggregates, e.aggregate)
      local stored = id and redis.call('HGET', events, id)
      if stored then
        local row = cjson.decode(stored)
        use(row, string.sub(row.at, 1, 10), -row.count)
        row.count = row.count + e.count
        if e.at > row.at then
          row.at = e.at
          index(row, id, score)
        end
        use(row, string.sub(row.at, 1, 10), row.count)
        redis.call('HSET', events, id, cjson.encode(row))
        merged = true
      else
        redis.call('HSET', aggregates, e.aggregate, e.id)
      end
    end
    if not merged then
      redis.call('HSET', events, e.id, json)
      index(e, e.id, score)
      use(e, string.sub(e.at, 1, 10), e.count)
    end
  end
end
return 1`;

/**
 * ARGV after the prefix: the instant (epoch ms) before which events go, how many at most. Removes the oldest
 * events before it, with their indexes and their share of the day's use. Returns {looked at, removed}.
 */
export const PURGE_AUDIT = `${COMMON}
local ids = redis.call('ZRANGEBYSCORE', p .. 'by-time', '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local removed = 0
for _, id in ipairs(ids) do removed = removed + remove(id) end
return {#ids, removed}`;

/**
 * ARGV after the prefix: one event's JSON, its score. The store copy: the event as it is, replacing one of the
 * same id and, in its school, the row of the same aggregate key (as SQLite's INSERT OR REPLACE).
 */
export const IMPORT_AUDIT = `${COMMON}
local json, score = ARGV[2], tonumber(ARGV[3])
local e = cjson.decode(json)
remove(e.id)
if e.aggregate then
  local aggregates = p .. 'aggregates:' .. e.organisationId
  local other = redis.call('HGET', aggregates, e.aggregate)
  if other then remove(other) end
  redis.call('HSET', aggregates, e.aggregate, e.id)
end
redis.call('HSET', events, e.id, json)
index(e, e.id, score)
use(e, string.sub(e.at, 1, 10), e.count)
return 1`;
