import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Store } from '../../adapters/store.js';
import { lanyard } from '../helpers/cli.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';

/**
 * The roster's administrators become school admins (docs/rostering.md → School admins), run as the real
 * `lanyard roster import` against the store of a running Lanyard, on SQLite and on Redis: an admin grant of
 * source `roster` for each, withdrawn when they stop being one or leave, and the grants made any other way
 * (the configuration file, the console, the operator) left as they are.
 */

/** A one-file CSV for Demo School: `people` rows after twelve pupils of class 3A. */
function school(people: string[]): string {
  const rows = ['username,given_name,family_name,type,class', ...people];
  for (let i = 1; i <= 12; i += 1) rows.push(`p${i},Pupil,Number${i},student,3A`);
  const path = join(mkdtempSync(join(tmpdir(), 'lanyard-roster-admins-')), 'school.csv');
  writeFileSync(path, `${rows.join('\n')}\n`);
  return path;
}

const HEAD = 'h.head,Hana,Head,admin,';
const OFFICE = 'office,Pat,Quinn,employee,';
const TEACHER = 't.one,Tess,One,teacher,3A';

/** Every admin grant of the school, as `username source`, by username. */
async function admins(store: Store, organisationId: string): Promise<string[]> {
  const grants = (await store.listStaffGrants(organisationId)).filter((g) => g.role === 'admin');
  const named = await Promise.all(grants.map(async (g) => `${(await store.findUser(g.userId))?.username} ${g.source}`));
  return named.sort();
}

for (const backend of ['SQLite', 'Redis'] as const) {
  t.test(`${backend}: administrators in the roster are school admins, kept in step at each import`, async (t) => {
    const redis = backend === 'Redis' ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'roster-admins') : undefined;
    const server = await startLanyard(t, redis ? { env: redis } : {});
    const env = redis ?? { LANYARD_STORE: `sqlite:${join(server.dir, 'lanyard.db')}` };
    const { store } = server;
    const org = (await store.findOrganisation('demo-school'))!;
    const roster = (people: string[], ...args: string[]) => lanyard(['roster', 'import', school(people), '--org', 'demo-school', ...args], env);
    t.same(await admins(store, org.id), ['teacher config'], "the configuration file's admin");

    const dry = await roster([HEAD, OFFICE, TEACHER], '--dry-run');
    t.equal(dry.code, 0, dry.stderr);
    t.match(dry.stdout, "school admins by the roster's administrator role: now h.head (demo-school)", 'a dry run says who would be');
    t.same(await admins(store, org.id), ['teacher config'], 'and grants nothing');

    const first = await roster([HEAD, OFFICE, TEACHER]);
    t.equal(first.code, 0, first.stderr);
    t.match(first.stdout, "school admins by the roster's administrator role: now h.head (demo-school)");
    t.same(await admins(store, org.id), ['h.head roster', 'teacher config'],
      'the admin of the file is one; office staff without a class are not; the file\'s admin stays, though the roster does not list them');
    const head = (await store.findUserByUsername(org.id, 'h.head'))!;
    const teacher = (await store.findUserByUsername(org.id, 't.one'))!;
    t.match(await store.userStaffGrants(head.id), [{ organisationId: org.id, role: 'admin', source: 'roster', grantedBy: undefined }]);

    const again = await roster([HEAD, OFFICE, TEACHER]);
    t.notMatch(again.stdout, /school admins by the roster/, 'the same files again: nothing to say');
    t.match(again.stdout, /nothing to change: nothing was written/);

    // A school admin in the console makes the teacher an admin too; the roster then names them administrator.
    await store.putStaffGrant({ organisationId: org.id, userId: teacher.id, role: 'admin', source: 'console', grantedAt: new Date().toISOString(), grantedBy: head.id });
    const promoted = await roster([HEAD, OFFICE, 't.one,Tess,One,admin,3A']);
    t.equal(promoted.code, 0, promoted.stderr);
    t.same(await admins(store, org.id), ['h.head roster', 't.one console', 'teacher config'], 'a grant made another way is kept as it is');

    const demoted = await roster(['h.head,Hana,Head,teacher,3A', OFFICE, TEACHER]);
    t.equal(demoted.code, 0, demoted.stderr);
    t.match(demoted.stdout, "school admins by the roster's administrator role: no longer h.head (demo-school)");
    t.same(await admins(store, org.id), ['t.one console', 'teacher config'], "no longer an administrator: the roster's grant goes, the console's stays");

    await roster([HEAD, OFFICE, TEACHER]);
    t.same(await admins(store, org.id), ['h.head roster', 't.one console', 'teacher config'], 'an administrator again');
    const left = await roster([OFFICE, TEACHER]);
    t.equal(left.code, 0, left.stderr);
    t.match(left.stdout, /leaving \(\d+\):\n {2}user h\.head/);
    t.match(left.stdout, "no longer h.head (demo-school)");
    t.same(await admins(store, org.id), ['t.one console', 'teacher config'], "a leaver's roster grant goes");

    await store.putStaffGrant({ organisationId: org.id, userId: head.id, role: 'admin', source: 'operator', grantedAt: new Date().toISOString() });
    await roster([OFFICE, TEACHER]);
    t.same(await admins(store, org.id), ['h.head operator', 't.one console', 'teacher config'], "the operator's grant is never the roster's to withdraw");
  });
}
