import { newId } from '../store/ids.js';
import { LanyardError } from '../../src/errors.js';
import {
  type CredentialKind, DEFAULT_LOGIN_SETTINGS, type Directory, type LoginSettings, type Organisation, sessionsEndNow, type User,
} from '../store.js';
import { asciiLower, compareBinary, compareNoCase } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { CREDENTIAL_KINDS, credentialField } from './credential-fields.js';
import { END_SESSIONS_LUA, type RevokeAccount, redisUserLifecycle } from './user-lifecycle.js';
import { defineScript, execPipeline, HGET_BOTH } from './scripts.js';
import { scanHash } from './scan.js';
import type { EntryIO } from './transfer.js';

// KEYS: orgs, org-slugs, org-logins. ARGV: id for a new organisation, lower(slug), slug, name, login JSON
// ('' keeps the stored one), source id ('' keeps the stored one). By slug, any case: an existing
// organisation keeps its id and slug. Returns the id, or 0 when the id given for a new organisation
// belongs to another.
const UPSERT_ORG = `
local id = redis.call('HGET', KEYS[2], ARGV[2])
local slug = ARGV[3]
local sourceId = nil
if id then
  local old = cjson.decode(redis.call('HGET', KEYS[1], id))
  slug = old.slug
  sourceId = old.sourceId
else
  id = ARGV[1]
  if redis.call('HEXISTS', KEYS[1], id) == 1 then return 0 end
  redis.call('HSET', KEYS[2], ARGV[2], id)
end
if ARGV[6] ~= '' then sourceId = ARGV[6] end
redis.call('HSET', KEYS[1], id, cjson.encode({id = id, slug = slug, name = ARGV[4], sourceId = sourceId}))
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], id, ARGV[5]) end
return id`;

// KEYS: org-slugs, orgs, org-logins. ARGV: lower(slug or id), slug or id. The organisation with that slug
// (any case), else the one with that id (a slug wins over an id that looks the same): its JSON and login
// settings (nil where missing). One command where a slug's id and then the organisation took two; a sign-in
// looks up schools nine times (the app's availability at each step: the school and the sandbox).
const FIND_ORG = `
local id = redis.call('HGET', KEYS[1], ARGV[1]) or ARGV[2]
return {redis.call('HGET', KEYS[2], id), redis.call('HGET', KEYS[3], id)}`;

// KEYS: users, the organisation's usernames, orgs, retired-users. ARGV: id for a new user, lower(username),
// user JSON without id. By (organisation, username in any case): an existing user keeps its id, username,
// suspension, sessionsValidAfter and what the roster set (source id, hold). Returns the stored JSON; 0 when the organisation does not exist, -1
// when the id belongs to another user, -2 when it belonged to a deleted one.
const UPSERT_USER = `
local user = cjson.decode(ARGV[3])
if redis.call('HEXISTS', KEYS[3], user.organisationId) == 0 then return 0 end
local id = redis.call('HGET', KEYS[2], ARGV[2])
if id then
  local old = cjson.decode(redis.call('HGET', KEYS[1], id))
  user.username = old.username
  user.suspendedAt = old.suspendedAt
  user.sessionsValidAfter = old.sessionsValidAfter
  user.sourceId = old.sourceId
  user.rosterHold = old.rosterHold
  user.rosterHoldSince = old.rosterHoldSince
else
  id = ARGV[1]
  if redis.call('HEXISTS', KEYS[1], id) == 1 then return -1 end
  if redis.call('HEXISTS', KEYS[4], id) == 1 then return -2 end
  redis.call('HSET', KEYS[2], ARGV[2], id)
end
user.id = id
local json = cjson.encode(user)
redis.call('HSET', KEYS[1], id, json)
return json`;

// KEYS: users, credentials. ARGV: user id, field, hash, now (sessions instant). 0 when the user does not
// exist, 2 when a different hash was replaced (the user's sessions end), else 1.
const SET_CREDENTIAL = `${END_SESSIONS_LUA}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local old = redis.call('HGET', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
if old and old ~= ARGV[3] then
  endSessions(KEYS[1], ARGV[1], tonumber(ARGV[4]))
  return 2
end
return 1`;

// KEYS: orgs, org-slugs, org-logins. ARGV: id, lower(slug), JSON, login JSON. As SQLite's INSERT OR
// REPLACE: the organisation that held the slug under another id is replaced.
const IMPORT_ORG = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local s = string.lower(cjson.decode(old).slug)
  if redis.call('HGET', KEYS[2], s) == ARGV[1] then redis.call('HDEL', KEYS[2], s) end
end
local other = redis.call('HGET', KEYS[2], ARGV[2])
if other and other ~= ARGV[1] then redis.call('HDEL', KEYS[1], other); redis.call('HDEL', KEYS[3], other) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
return 1`;

// KEYS: users, the organisation's usernames, its source ids, leavers. ARGV: id, lower(username),
// organisation id, JSON, source id (''), hold (''), hold since. As INSERT OR REPLACE: the user that held the
// username under another id is replaced; the source-id and leaver indexes follow.
const IMPORT_USER = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local o = cjson.decode(old)
  local k = string.lower(o.username)
  if o.organisationId == ARGV[3] and k ~= ARGV[2] and redis.call('HGET', KEYS[2], k) == ARGV[1] then redis.call('HDEL', KEYS[2], k) end
  if o.organisationId == ARGV[3] and o.sourceId and o.sourceId ~= ARGV[5] and redis.call('HGET', KEYS[3], o.sourceId) == ARGV[1] then
    redis.call('HDEL', KEYS[3], o.sourceId)
  end
end
local other = redis.call('HGET', KEYS[2], ARGV[2])
if other and other ~= ARGV[1] then redis.call('HDEL', KEYS[1], other) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], ARGV[5], ARGV[1]) end
if ARGV[6] == 'left' then redis.call('HSET', KEYS[4], ARGV[1], ARGV[7]) else redis.call('HDEL', KEYS[4], ARGV[1]) end
return 1`;

type StoredOrg = Omit<Organisation, 'login'>;

const toOrganisation = (json: string, login: string | null | undefined): Organisation => {
  const o = JSON.parse(json) as StoredOrg;
  return {
    id: o.id, slug: o.slug, name: o.name, login: login ? (JSON.parse(login) as LoginSettings) : DEFAULT_LOGIN_SETTINGS,
    ...(o.sourceId ? { sourceId: o.sourceId } : {}),
  };
};

/** A stored user; the roster's fields only where set (as the SQLite store reads them). */
export const toUser = (json: string): User => {
  const u = JSON.parse(json) as User;
  return {
    id: u.id, organisationId: u.organisationId, username: u.username, givenName: u.givenName,
    familyName: u.familyName, type: u.type, email: u.email ?? undefined, googleEmail: u.googleEmail ?? undefined,
    microsoftEmail: u.microsoftEmail ?? undefined, rosterId: u.rosterId ?? undefined,
    ...(u.sourceId ? { sourceId: u.sourceId } : {}),
    ...(u.rosterHold ? { rosterHold: u.rosterHold } : {}),
    ...(u.rosterHoldSince ? { rosterHoldSince: u.rosterHoldSince } : {}),
    suspendedAt: u.suspendedAt ?? undefined, sessionsValidAfter: u.sessionsValidAfter ?? undefined,
  };
};

/** Only the User's own fields (absent ones left out, so an update clears them), without its state. */
const userFields = (u: Omit<User, 'id'>) => ({
  organisationId: u.organisationId, username: u.username, givenName: u.givenName, familyName: u.familyName, type: u.type,
  email: u.email ?? undefined, googleEmail: u.googleEmail ?? undefined, microsoftEmail: u.microsoftEmail ?? undefined,
  rosterId: u.rosterId ?? undefined,
});


/** How many fresh random ids a new user may try (50 bits each: a second try is already a curiosity). */
const ID_TRIES = 5;

/**
 * Organisations, users and credentials in Redis: hashes under the {directory} tag, upserts as scripts.
 * Ending a user's sessions is one script on the user (sessionsValidAfter), then `revokeAccount` on the
 * protocol records, which live in other hash slots.
 */
export function redisDirectory(ctx: RedisContext, revokeAccount: RevokeAccount) {
  const { client, keys } = ctx;
  const k = keys.directory;
  const upsertOrg = defineScript(client, 'lanyardUpsertOrganisation', UPSERT_ORG);
  const upsertUser = defineScript(client, 'lanyardUpsertUser', UPSERT_USER);
  const setCredential = defineScript(client, 'lanyardSetCredential', SET_CREDENTIAL);
  const importOrg = defineScript(client, 'lanyardImportOrganisation', IMPORT_ORG);
  const importUser = defineScript(client, 'lanyardImportUser', IMPORT_USER);
  const orgAndLogin = defineScript(client, 'lanyardOrganisationById', HGET_BOTH);
  const findOrg = defineScript(client, 'lanyardFindOrganisation', FIND_ORG);
  const lifecycle = redisUserLifecycle(ctx, revokeAccount);

  async function orgById(id: string): Promise<Organisation | undefined> {
    const [json, login] = (await orgAndLogin([k.orgs, k.orgLogins], [id])) as (string | null)[];
    return json ? toOrganisation(json, login) : undefined;
  }
  async function allOrgs(): Promise<Organisation[]> {
    const [orgs, logins] = (await execPipeline(client.multi().hgetall(k.orgs).hgetall(k.orgLogins))) as Record<string, string>[];
    return Object.entries(orgs!).map(([id, json]) => toOrganisation(json, logins![id]));
  }
  /** The user `id`, if it is still the one the (organisation, username) index led to. */
  async function userAt(id: string | null, organisationId: string, nameKey: string) {
    const json = id === null ? null : await client.hget(k.users, id);
    const user = json ? toUser(json) : undefined;
    return user?.organisationId === organisationId && asciiLower(user.username) === nameKey ? user : undefined;
  }

  const directory: Directory = {
    async upsertOrganisation(org) {
      const id = await upsertOrg([k.orgs, k.orgSlugs, k.orgLogins], [
        org.id ?? newId('o'), asciiLower(org.slug), org.slug, org.name, org.login ? JSON.stringify(org.login) : '', org.sourceId ?? '',
      ]);
      if (id === 0) throw new LanyardError('conflict', `organisation id ${org.id} belongs to another organisation`, 409, true);
      return (await orgById(String(id)))!;
    },
    async findOrganisation(slugOrId) {
      const [json, login] = (await findOrg([k.orgSlugs, k.orgs, k.orgLogins], [asciiLower(slugOrId), slugOrId])) as (string | null)[];
      return json ? toOrganisation(json, login) : undefined;
    },
    async searchOrganisations(query, limit) {
      const q = asciiLower(query);
      const found = (await allOrgs())
        .filter((o) => asciiLower(o.name).includes(q) || asciiLower(o.slug).includes(q))
        .sort((a, b) => compareNoCase(a.name, b.name) || compareNoCase(a.slug, b.slug));
      return limit < 0 ? found : found.slice(0, limit);
    },
    async upsertUser(user) {
      for (let i = 0; ; i += 1) {
        const json = await upsertUser([k.users, k.usernames(user.organisationId), k.orgs, k.retiredUsers], [
          user.id ?? newId('u'), asciiLower(user.username), JSON.stringify(userFields(user)),
        ]);
        if (json === 0) throw new LanyardError('not_found', `organisation ${user.organisationId} does not exist`, 404, true);
        // A fresh random id that is taken: draw another.
        if ((json === -1 || json === -2) && user.id === undefined && i < ID_TRIES) continue;
        if (json === -1) throw new LanyardError('conflict', `user id ${user.id} belongs to another user`, 409, true);
        if (json === -2) throw new LanyardError('conflict', `user id ${user.id} belonged to a deleted user and is never reused`, 409, true);
        return toUser(json as string);
      }
    },
    async findUser(id) {
      const json = await client.hget(k.users, id);
      return json ? toUser(json) : undefined;
    },
    async findUserByUsername(organisationId, username) {
      const nameKey = asciiLower(username);
      return userAt(await client.hget(k.usernames(organisationId), nameKey), organisationId, nameKey);
    },
    async listUsers(organisationId) {
      const index = await client.hgetall(k.usernames(organisationId));
      const ids = Object.values(index);
      const jsons = ids.length ? await client.hmget(k.users, ...ids) : [];
      return jsons
        .map((json) => (json ? toUser(json) : undefined))
        .filter((u): u is User => u?.organisationId === organisationId && index[asciiLower(u.username)] === u.id)
        .sort((a, b) => compareNoCase(a.username, b.username));
    },
    async setCredential(userId, kind, hash) {
      const done = await setCredential([k.users, k.credentials], [userId, credentialField(userId, kind), hash, sessionsEndNow()]);
      if (done === 0) throw new LanyardError('not_found', `user ${userId} does not exist`, 404, true);
      if (done === 2) await revokeAccount(userId);
    },
    async getCredential(userId, kind) { return (await client.hget(k.credentials, credentialField(userId, kind))) ?? undefined; },
    async credentialKinds(organisationId) {
      const ids = Object.values(await client.hgetall(k.usernames(organisationId)));
      const fields = ids.flatMap((id) => CREDENTIAL_KINDS.map((kind) => credentialField(id, kind)));
      const hashes = fields.length ? await client.hmget(k.credentials, ...fields) : [];
      const out = new Map<string, CredentialKind[]>();
      ids.forEach((id, i) => {
        const kinds = CREDENTIAL_KINDS.filter((_, j) => hashes[i * CREDENTIAL_KINDS.length + j] !== null);
        if (kinds.length) out.set(id, kinds);
      });
      return out;
    },
    ...lifecycle.methods,
  };

  const organisations: EntryIO<'organisation'> = {
    async *read() { yield* (await allOrgs()).sort((a, b) => compareBinary(a.id, b.id)); },
    count: () => client.hlen(k.orgs),
    async write(org) {
      const { login, ...rest } = org;
      await importOrg([k.orgs, k.orgSlugs, k.orgLogins], [org.id, asciiLower(org.slug), JSON.stringify(rest), JSON.stringify(login)]);
    },
  };
  const users: EntryIO<'user'> = {
    async *read() {
      for await (const batch of scanHash(client, k.users)) yield* batch.map(([, json]) => toUser(json));
    },
    count: () => client.hlen(k.users),
    async write(user) {
      const stored = {
        id: user.id, ...userFields(user), sourceId: user.sourceId, rosterHold: user.rosterHold, rosterHoldSince: user.rosterHoldSince,
        suspendedAt: user.suspendedAt, sessionsValidAfter: user.sessionsValidAfter,
      };
      await importUser([k.users, k.usernames(user.organisationId), keys.roster.sourceIds(user.organisationId), keys.roster.leavers], [
        user.id, asciiLower(user.username), user.organisationId, JSON.stringify(stored), user.sourceId ?? '', user.rosterHold ?? '',
        user.rosterHoldSince ?? '',
      ]);
    },
  };
  const credentials: EntryIO<'credential'> = {
    async *read() {
      for await (const batch of scanHash(client, k.credentials)) {
        for (const [field, hash] of batch) {
          const at = field.lastIndexOf(':');
          yield { userId: field.slice(0, at), kind: field.slice(at + 1) as CredentialKind, hash };
        }
      }
    },
    count: () => client.hlen(k.credentials),
    async write(c) { await client.hset(k.credentials, credentialField(c.userId, c.kind), c.hash); },
  };

  return { directory, entries: { organisations, users, retiredUsers: lifecycle.retiredUsers, credentials } };
}
