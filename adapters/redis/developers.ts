import { LanyardError } from '../../src/errors.js';
import type { DeveloperAccount, DeveloperApiToken, DeveloperEvent, Developers, TeamMember } from '../store.js';
import { earlierEmailKey, normaliseEmail } from '../store/developers.js';
import { byKeys, compareBinary } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { scanKeys } from './scan.js';
import { defineScript, execPipeline, HGET_BOTH, TOUCH_LAST_USED } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: accounts, email-of, emails. ARGV: id, email, JSON without email. The email index is checked and
// written in the same script, so of two instances creating one email at once exactly one succeeds.
// 1 created, 0 the email is taken, -1 the id is taken.
const CREATE = `
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[1])
return 1`;

// KEYS: accounts. ARGV: id, JSON without email. Only an existing account (the email stays as it is).
const UPDATE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

// KEYS: accounts, email-of, emails. ARGV: id, email, JSON without email. The import: writes the account by
// id as it is; another account holding the email is replaced (as SQLite's INSERT OR REPLACE does).
const IMPORT = `
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old and old ~= ARGV[2] and redis.call('HGET', KEYS[3], old) == ARGV[1] then redis.call('HDEL', KEYS[3], old) end
local holder = redis.call('HGET', KEYS[3], ARGV[2])
if holder and holder ~= ARGV[1] then
  redis.call('HDEL', KEYS[1], holder)
  redis.call('HDEL', KEYS[2], holder)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[1])
return 1`;

// KEYS: the client's team, the developer's memberships. ARGV: client id, developer id, JSON.
const PUT_MEMBER = `
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1`;

// KEYS: the client's team, the developer's memberships. ARGV: client id, developer id. 1 when there was one.
const REMOVE_MEMBER = `
local n = redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[1])
return n`;

// KEYS: the client's team, then the memberships of each developer the caller saw in it. ARGV: client id,
// then those developer ids. -1 (nothing changed; read the team again) when a member was added meanwhile.
const DELETE_TEAM = `
local seen = {}
for i = 2, #ARGV do seen[ARGV[i]] = true end
for _, d in ipairs(redis.call('HKEYS', KEYS[1])) do if not seen[d] then return -1 end end
for i = 2, #KEYS do redis.call('HDEL', KEYS[i], ARGV[1]) end
redis.call('DEL', KEYS[1])
return 1`;

// KEYS: tokens, the developer's token set. ARGV: id, developer id, JSON.
const PUT_TOKEN = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;

// KEYS: tokens, the developer's token set. ARGV: id, developer id. Only the developer's own token.
const DELETE_TOKEN = `
local t = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[2], ARGV[1])
if not t or cjson.decode(t).developerId ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1`;

// KEYS: the subject's events. ARGV: JSON. The import: an event has no id, so one the list already holds is
// skipped (a copy run again adds no duplicates). LPOS: Redis 6.0.6 or later.
const IMPORT_EVENT = `
if redis.call('LPOS', KEYS[1], ARGV[1]) then return 0 end
redis.call('LPUSH', KEYS[1], ARGV[1])
return 1`;

/** Rounds of DELETE_TEAM before giving up: each lost round means a member was added in between. */
const DELETE_TEAM_ATTEMPTS = 10;

type AccountFields = Omit<DeveloperAccount, 'email'>;

const accountJson = (a: DeveloperAccount) => JSON.stringify({
  id: a.id, displayName: a.displayName, passwordHash: a.passwordHash, totpSecret: a.totpSecret ?? undefined,
  recoveryCodeHashes: a.recoveryCodeHashes ?? undefined, sessionsValidAfter: a.sessionsValidAfter ?? undefined,
  createdAt: a.createdAt, updatedAt: a.updatedAt, emailVerifiedAt: a.emailVerifiedAt ?? undefined,
} satisfies AccountFields);

const toAccount = (json: string, email: string): DeveloperAccount => {
  const a = JSON.parse(json) as AccountFields;
  return {
    id: a.id, email, displayName: a.displayName, passwordHash: a.passwordHash, totpSecret: a.totpSecret ?? undefined,
    recoveryCodeHashes: a.recoveryCodeHashes ?? undefined, sessionsValidAfter: a.sessionsValidAfter ?? undefined,
    createdAt: a.createdAt, updatedAt: a.updatedAt, emailVerifiedAt: a.emailVerifiedAt ?? undefined,
  };
};

const memberJson = (m: TeamMember) => JSON.stringify({
  clientId: m.clientId, developerId: m.developerId, role: m.role, addedAt: m.addedAt, invitedBy: m.invitedBy ?? undefined,
} satisfies TeamMember);

const toMember = (json: string): TeamMember => {
  const m = JSON.parse(json) as TeamMember;
  return { clientId: m.clientId, developerId: m.developerId, role: m.role, addedAt: m.addedAt, invitedBy: m.invitedBy ?? undefined };
};

const tokenJson = (t: DeveloperApiToken) => JSON.stringify({
  id: t.id, developerId: t.developerId, hash: t.hash, label: t.label, hint: t.hint, createdAt: t.createdAt,
  expiresAt: t.expiresAt, lastUsedAt: t.lastUsedAt ?? undefined,
} satisfies DeveloperApiToken);

const toToken = (json: string): DeveloperApiToken => {
  const t = JSON.parse(json) as DeveloperApiToken;
  return {
    id: t.id, developerId: t.developerId, hash: t.hash, label: t.label, hint: t.hint, createdAt: t.createdAt,
    expiresAt: t.expiresAt, lastUsedAt: t.lastUsedAt ?? undefined,
  };
};

const eventJson = (e: DeveloperEvent) => JSON.stringify({
  subject: e.subject, at: e.at, actorId: e.actorId, actorName: e.actorName, action: e.action, detail: e.detail,
} satisfies DeveloperEvent);

/** Emails are compared (and kept) lower-cased, as in SQLite (adapters/sqlite/developers.ts). */

const byEmail = byKeys<DeveloperAccount>((a) => a.email);
const teamOrder = byKeys<TeamMember>((m) => m.addedAt, (m) => m.developerId);
const membershipOrder = byKeys<TeamMember>((m) => m.addedAt, (m) => m.clientId);
const tokenOrder = byKeys<DeveloperApiToken>((t) => t.createdAt, (t) => t.id);

/**
 * The developer area's records in Redis, under the {developers} tag. Events are a list per subject, pushed
 * at the head: newest first is the order they were appended in (each is appended as it happens).
 */
export function redisDevelopers({ client, keys }: RedisContext) {
  const k = keys.developers;
  const create = defineScript(client, 'lanyardCreateDeveloper', CREATE);
  const update = defineScript(client, 'lanyardUpdateDeveloper', UPDATE);
  const importAccount = defineScript(client, 'lanyardImportDeveloper', IMPORT);
  const putMember = defineScript(client, 'lanyardPutTeamMember', PUT_MEMBER);
  const removeMember = defineScript(client, 'lanyardRemoveTeamMember', REMOVE_MEMBER);
  const deleteTeam = defineScript(client, 'lanyardDeleteTeam', DELETE_TEAM);
  const putToken = defineScript(client, 'lanyardPutApiToken', PUT_TOKEN);
  const deleteToken = defineScript(client, 'lanyardDeleteApiToken', DELETE_TOKEN);
  const touchToken = defineScript(client, 'lanyardTouchApiToken', TOUCH_LAST_USED);
  const accountAndEmail = defineScript(client, 'lanyardFindDeveloper', HGET_BOTH);
  const importEvent = defineScript(client, 'lanyardImportDeveloperEvent', IMPORT_EVENT);

  async function findDeveloper(id: string): Promise<DeveloperAccount | undefined> {
    const [json, email] = (await accountAndEmail([k.accounts, k.emailOf], [id])) as (string | null)[];
    return json && email ? toAccount(json, email) : undefined;
  }

  async function listDevelopers(): Promise<DeveloperAccount[]> {
    const [all, emails] = (await execPipeline(client.multi().hgetall(k.accounts).hgetall(k.emailOf))) as Record<string, string>[];
    return Object.entries(all!).flatMap(([id, json]) => (emails![id] ? [toAccount(json, emails![id])] : [])).sort(byEmail);
  }

  const members = async (key: string) => (await client.hvals(key)).map(toMember);

  async function listApiTokens(developerId: string): Promise<DeveloperApiToken[]> {
    const ids = await client.smembers(k.tokensOf(developerId));
    if (!ids.length) return [];
    const found = await client.hmget(k.tokens, ...ids);
    return found.flatMap((json) => (json ? [toToken(json)] : []))
      .filter((t) => t.developerId === developerId).sort(tokenOrder);
  }

  const developers: Developers = {
    async createDeveloper(account) {
      const email = normaliseEmail(account.email);
      const created = await create([k.accounts, k.emailOf, k.emails], [account.id, email, accountJson(account)]);
      if (created === -1) throw new Error(`developer id ${account.id} is already taken`);
      return created === 1;
    },
    findDeveloper,
    async findDeveloperByEmail(email) {
      const normalised = normaliseEmail(email);
      const earlier = earlierEmailKey(normalised);
      const id = (await client.hget(k.emails, normalised)) ?? (earlier ? await client.hget(k.emails, earlier) : null);
      return id === null ? undefined : findDeveloper(id);
    },
    async updateDeveloper(account) {
      if ((await update([k.accounts], [account.id, accountJson(account)])) === 0) {
        throw new LanyardError('not_found', `developer ${account.id} does not exist`, 404, true);
      }
    },
    listDevelopers,

    async putTeamMember(m) {
      await putMember([k.team(m.clientId), k.memberships(m.developerId)], [m.clientId, m.developerId, memberJson(m)]);
    },
    async removeTeamMember(clientId, developerId) {
      return (await removeMember([k.team(clientId), k.memberships(developerId)], [clientId, developerId])) === 1;
    },
    async listTeam(clientId) { return (await members(k.team(clientId))).sort(teamOrder); },
    async listMemberships(developerId) { return (await members(k.memberships(developerId))).sort(membershipOrder); },
    async deleteTeam(clientId) {
      for (let attempt = 0; attempt < DELETE_TEAM_ATTEMPTS; attempt += 1) {
        const ids = await client.hkeys(k.team(clientId));
        const done = await deleteTeam([k.team(clientId), ...ids.map(k.memberships)], [clientId, ...ids]);
        if (done === 1) return;
      }
      throw new Error(`the team of ${clientId} kept changing while being deleted`);
    },

    async putApiToken(t) { await putToken([k.tokens, k.tokensOf(t.developerId)], [t.id, t.developerId, tokenJson(t)]); },
    async findApiToken(id) {
      const json = await client.hget(k.tokens, id);
      return json ? toToken(json) : undefined;
    },
    listApiTokens,
    async deleteApiToken(developerId, id) {
      return (await deleteToken([k.tokens, k.tokensOf(developerId)], [id, developerId])) === 1;
    },
    async touchApiToken(id, at) { await touchToken([k.tokens], [id, at]); },

    async appendDeveloperEvent(event) { await client.lpush(k.events(event.subject), eventJson(event)); },
    async listDeveloperEvents(subject, limit) {
      const n = Number.isFinite(limit) ? Math.floor(limit) : Number.MAX_SAFE_INTEGER; // Infinity: all of them
      if (!(n > 0)) return [];
      return (await client.lrange(k.events(subject), 0, n - 1)).map((json) => JSON.parse(json) as DeveloperEvent);
    },
  };

  /** Keys found by a SCAN, each once, in BINARY order (exports are deterministic). */
  async function scanned(match: string): Promise<string[]> {
    const found: string[] = [];
    for await (const batch of scanKeys(client, match, true)) found.push(...batch);
    return found.sort(compareBinary);
  }

  const entries = {
    developer: {
      async *read() { yield* await listDevelopers(); },
      count: () => client.hlen(k.accounts),
      async write(a) {
        await importAccount([k.accounts, k.emailOf, k.emails], [a.id, normaliseEmail(a.email), accountJson(a)]);
      },
    } satisfies EntryIO<'developer'>,
    team_member: {
      async *read() {
        for (const key of await scanned(k.match.teams)) yield* await developers.listTeam(k.teamOf(key));
      },
      write: (m) => developers.putTeamMember(m),
    } satisfies EntryIO<'team_member'>,
    api_token: {
      async *read() {
        const all = await client.hvals(k.tokens);
        yield* all.map(toToken).sort(byKeys<DeveloperApiToken>((t) => t.id));
      },
      count: () => client.hlen(k.tokens),
      write: (t) => developers.putApiToken(t),
    } satisfies EntryIO<'api_token'>,
    developer_event: {
      // Oldest first per subject: written back in this order (each pushed at the head), they keep their order.
      async *read() {
        for (const key of await scanned(k.match.events)) {
          yield* (await client.lrange(key, 0, -1)).reverse().map((json) => JSON.parse(json) as DeveloperEvent);
        }
      },
      async count() {
        const lens = await Promise.all((await scanned(k.match.events)).map((key) => client.llen(key)));
        return lens.reduce((a, b) => a + b, 0);
      },
      async write(e) { await importEvent([k.events(e.subject)], [eventJson(e)]); },
      ordered: true,
    } satisfies EntryIO<'developer_event'>,
  };

  return { developers, entries };
}
