import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { rosterSettings } from '../../src/config/roster.js';
import { readRoster } from '../../src/roster/read/read-roster.js';
import { importRoster } from '../../src/roster/import-roster.js';
import { purgeLeavers, retentionCutoff } from '../../src/roster/retention.js';
import { ROSTER_LOCK } from '../../src/roster/roster-lock.js';
import { lanyard, type Run } from '../helpers/cli.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * Many imports at once, and leavers deleted after the retention period (docs/rostering.md → Leavers and
 * retention, Nightly sync): one import applies, another waits for it (and then has nothing to change) or, past
 * --wait, is refused with exit 75; `lanyard roster purge` and the service delete leavers, keeping their ids retired.
 */

function schoolCsv(pupils: number): string {
  const rows = ['username,given_name,family_name,type,class'];
  for (let i = 1; i <= pupils; i += 1) rows.push(`p${i},Pupil,Number${i},student,${i % 2 ? '3A' : '3B'}`);
  const path = join(mkdtempSync(join(tmpdir(), 'lanyard-roster-')), 'school.csv');
  writeFileSync(path, `${rows.join('\n')}\n`);
  return path;
}

const applied = (r: Run) => (JSON.parse(r.stdout) as { applied: boolean }).applied;

t.test('two imports at once: one applies, the other waits and finds nothing to change; past --wait, exit 75', async (t) => {
  const server = await startLanyard(t);
  const env = { LANYARD_STORE: `sqlite:${join(server.dir, 'lanyard.db')}` };
  const file = schoolCsv(40);
  const runs = await Promise.all([1, 2].map(() => lanyard(['roster', 'import', file, '--org', 'demo-school', '--json'], env)));
  t.same(runs.map((r) => r.code), [0, 0], runs.map((r) => r.stderr).join('\n'));
  t.same(runs.map(applied).sort(), [false, true], 'exactly one applied');
  t.equal((await server.store.listRosterImports(10)).length, 1, 'one import recorded');
  const org = (await server.store.findOrganisation('demo-school'))!;
  t.equal((await server.store.listUsers(org.id)).filter((u) => u.sourceId).length, 40, 'each pupil once');
  t.same((await server.store.listClasses(org.id)).map((c) => c.pupils), [20, 20]);

  const token = (await server.store.tryLock(ROSTER_LOCK, 60_000))!;
  t.teardown(() => server.store.unlock(ROSTER_LOCK, token));
  const busy = await lanyard(['roster', 'import', schoolCsv(41), '--org', 'demo-school', '--wait', '1'], env);
  t.equal(busy.code, 75, 'refused: exit 75 (EX_TEMPFAIL)');
  t.match(busy.stderr, /another roster import is running \(waited 1 s\): try again when it has finished/);
  t.equal((await server.store.listUsers(org.id)).filter((u) => u.sourceId).length, 40, 'nothing written');
  const purge = await lanyard(['roster', 'purge', '--wait', '0'], env);
  t.equal(purge.code, 75, 'purge waits for the same lock');
});

t.test('leavers are deleted after the retention period, or at once with purge --all; their ids are never reused', async (t) => {
  const clock = new ManualClock(Date.now() - 100 * 86_400_000); // the commands' clock is the real one: holds begin before it
  const server = await startLanyard(t, { clock });
  const env = { LANYARD_STORE: `sqlite:${join(server.dir, 'lanyard.db')}` };
  const options = { read: readRoster, clock, settings: rosterSettings({}), by: 'test', org: 'demo-school', lockWaitMs: 1000 };
  await importRoster(server.store, schoolCsv(20), options);
  const left = await importRoster(server.store, schoolCsv(18), options);
  t.same(left.plan.kinds.users.leaving.map((n) => n.name), ['p19', 'p20']);
  const org = (await server.store.findOrganisation('demo-school'))!;
  const [p19, p20] = await Promise.all(['p19', 'p20'].map(async (n) => (await server.store.findUserByUsername(org.id, n))!));

  const notYet = await purgeLeavers(server.store, clock, { before: retentionCutoff(clock, 90), lockWaitMs: 0 });
  t.same(notYet, [], 'held today: kept');
  const dry = await lanyard(['roster', 'purge', '--org', 'demo-school', '--all', '--dry-run'], env);
  t.equal(dry.code, 0, dry.stderr);
  t.match(dry.stdout, /^would delete 2 leavers of demo-school: p19, p20\n/);

  clock.advance(91 * 86_400_000);
  t.same((await purgeLeavers(server.store, clock, { before: retentionCutoff(clock, 90), organisationIds: [org.id], dryRun: true, lockWaitMs: 0 })).map((u) => u.username),
    ['p19', 'p20'], '91 days later: due');
  // An import 91 days later deletes the leavers of the schools it covers.
  const later = await importRoster(server.store, schoolCsv(18), options);
  t.same([later.applied, later.purged.map((u) => u.username)], [false, ['p19', 'p20']]);
  t.notOk(await server.store.findUser(p19!.id), 'deleted');
  t.ok(await server.store.isRetiredUserId(p20!.id), 'the id is retired, never given to anyone else');

  await importRoster(server.store, schoolCsv(17), options);
  const all = await lanyard(['roster', 'purge', '--org', 'demo-school', '--all'], env);
  t.equal(all.code, 0, all.stderr);
  t.match(all.stdout, /^deleted 1 leaver of demo-school: p18\n/);
  t.equal((await lanyard(['roster', 'purge', '--all'], env)).code, 1, '--all needs --org');
  const none = await lanyard(['roster', 'purge'], env);
  t.match(none.stdout, /^no leavers of any organisation held since before \d{4}-\d\d-\d\d \(retention_days: 90\): nothing to delete/);
});
