import { LanyardError } from '../../src/errors.js';
import type { Staff, StaffGrant } from '../store.js';
import { byKeys } from '../store/collation.js';
import type { RedisContext } from './context.js';
import { defineScript } from './scripts.js';
import type { EntryIO } from './transfer.js';

// KEYS: users, orgs, the organisation's grants, the user's grants. ARGV: user id, organisation id, role, JSON.
// 0 when the user, -1 when the organisation does not exist (checked in the same step as the write).
const PUT_GRANT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then return -1 end
redis.call('HSET', KEYS[3], ARGV[1] .. ' ' .. ARGV[3], ARGV[4])
redis.call('HSET', KEYS[4], ARGV[2] .. ' ' .. ARGV[3], ARGV[4])
return 1`;

// KEYS: the organisation's grants, the user's grants. ARGV: user id, organisation id, role.
const DELETE_GRANT = `
local n = redis.call('HDEL', KEYS[1], ARGV[1] .. ' ' .. ARGV[3])
redis.call('HDEL', KEYS[2], ARGV[2] .. ' ' .. ARGV[3])
return n`;

/** A grant's own fields (absent ones left out). */
const json = (g: StaffGrant) => JSON.stringify({
  organisationId: g.organisationId, userId: g.userId, role: g.role, source: g.source, grantedAt: g.grantedAt, grantedBy: g.grantedBy ?? undefined,
} satisfies StaffGrant);

const toGrant = (s: string): StaffGrant => {
  const g = JSON.parse(s) as StaffGrant;
  return { organisationId: g.organisationId, userId: g.userId, role: g.role, source: g.source, grantedAt: g.grantedAt, grantedBy: g.grantedBy ?? undefined };
};

const byUserThenRole = byKeys<StaffGrant>((g) => g.userId, (g) => g.role);
const byOrganisationThenRole = byKeys<StaffGrant>((g) => g.organisationId, (g) => g.role);

type Grants = Pick<Staff, 'putStaffGrant' | 'deleteStaffGrant' | 'listStaffGrants' | 'userStaffGrants'>;

/**
 * Staff grants in Redis, under the {directory} tag with the people and schools they name (a user's deletion
 * removes theirs: adapters/redis/user-lifecycle.ts). Both directions are kept, written and removed together by
 * one script: a school's grants (its staff) and a person's (the console's sign-in).
 */
export function redisStaffGrants({ client, keys }: RedisContext) {
  const k = keys.staff;
  const put = defineScript(client, 'lanyardPutStaffGrant', PUT_GRANT);
  const del = defineScript(client, 'lanyardDeleteStaffGrant', DELETE_GRANT);

  const grants: Grants = {
    async putStaffGrant(g) {
      const done = await put([keys.directory.users, keys.directory.orgs, k.grants(g.organisationId), k.grantsOf(g.userId)], [
        g.userId, g.organisationId, g.role, json(g),
      ]);
      if (done === 0) throw new LanyardError('not_found', `user ${g.userId} does not exist`, 404, true);
      if (done === -1) throw new LanyardError('not_found', `organisation ${g.organisationId} does not exist`, 404, true);
    },
    async deleteStaffGrant(organisationId, userId, role) {
      return (await del([k.grants(organisationId), k.grantsOf(userId)], [userId, organisationId, role])) === 1;
    },
    async listStaffGrants(organisationId) { return (await client.hvals(k.grants(organisationId))).map(toGrant).sort(byUserThenRole); },
    async userStaffGrants(userId) { return (await client.hvals(k.grantsOf(userId))).map(toGrant).sort(byOrganisationThenRole); },
  };

  const organisations = async () => (await client.hkeys(keys.directory.orgs)).sort();
  const entries: EntryIO<'staff_grant'> = {
    async *read() {
      for (const organisationId of await organisations()) yield* await grants.listStaffGrants(organisationId);
    },
    async count() {
      const lengths = await Promise.all((await organisations()).map((o) => client.hlen(k.grants(o))));
      return lengths.reduce((a, b) => a + b, 0);
    },
    write: (g) => grants.putStaffGrant(g),
  };

  return { grants, entries };
}
