import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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

function schoolCsv(pupils: number, extra: string[] = []): string {
  const rows = ['username,given_name,family_name,type,class'];
  for (let i = 1; i <= pupils; i += 1) rows.push(`p${i},Pupil,Number${i},student,${i % 2 ? '3A' : '3B'}`);
  rows.push(...extra);
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

  const busyJson = await lanyard(['roster', 'import', schoolCsv(41), '--org', 'demo-school', '--wait', '1', '--json'], env);
  t.equal(busyJson.code, 75, 'with --json: exit 75 too');
  t.match(JSON.parse(busyJson.stdout), {
    counts: { users: { added: 0, changed: 0, unchanged: 0, leaving: 0 }, classes: { added: 0 } },
    errors: [{ line: 0, column: '', message: /another roster import is running/ }], applied: false,
  }, 'and exactly one JSON object on standard output');
  t.equal(busyJson.stderr, '', 'nothing else');
});

t.test('--json prints one JSON object when the path is not a roster that can be read', async (t) => {
  const server = await startLanyard(t);
  const env = { LANYARD_STORE: `sqlite:${join(server.dir, 'lanyard.db')}` };
  const missing = join(server.dir, 'no-such-export');
  for (const [path, message] of [[missing, /no such file or folder/], [schoolCsv(3), /is a one-file CSV: say which organisation it is for/]] as const) {
    const r = await lanyard(['roster', 'import', path, '--json'], env);
    t.equal(r.code, 1, r.stderr);
    t.same(Object.keys(JSON.parse(r.stdout)), ['counts', 'errors', 'applied'], 'one JSON object');
    t.match(JSON.parse(r.stdout), { errors: [{ file: path, line: 0, column: '', message }], applied: false });
    const plain = await lanyard(['roster', 'import', path], env);
    t.equal(plain.code, 1);
    t.match(plain.stderr, message, 'without --json: one line on stderr');
  }
});

t.test('deleting expired leavers fails after the import applied: the import is reported applied, with a warning', async (t) => {
  const clock = new ManualClock(Date.now() - 100 * 86_400_000);
  const server = await startLanyard(t, { clock });
  const dbPath = join(server.dir, 'lanyard.db');
  const env = { LANYARD_STORE: `sqlite:${dbPath}` };
  const options = { read: readRoster, clock, settings: rosterSettings({}), by: 'test', org: 'demo-school', lockWaitMs: 1000 };
  await importRoster(server.store, schoolCsv(20), options);
  await importRoster(server.store, schoolCsv(19), options); // p20 left 100 days ago: past retention now
  // The store refuses to delete a user (a real failure of the real store, as a full disk or a lost connection).
  const db = new Database(dbPath);
  db.exec("CREATE TRIGGER no_deletes BEFORE DELETE ON users BEGIN SELECT RAISE(ABORT, 'deleting users is refused here'); END");
  db.close();

  const r = await lanyard(['roster', 'import', schoolCsv(19, ['newcomer,New,Comer,student,3A']), '--org', 'demo-school'], env);
  t.equal(r.code, 0, 'the import stands: exit 0');
  t.match(r.stdout, /applied; recorded as import/);
  t.match(r.stdout, /notes \(1\):\n {2}deleting the leavers past the retention period failed \(.*deleting users is refused here.*\): `lanyard roster purge` tries again/);
  t.match(r.stderr, /lanyard: warning: the import stands, but deleting the leavers past the retention period failed/);
  const org = (await server.store.findOrganisation('demo-school'))!;
  t.ok(await server.store.findUserByUsername(org.id, 'newcomer'), 'the newcomer was added');
  t.ok(await server.store.findUserByUsername(org.id, 'p20'), 'the leaver is still there');

  const json = await lanyard(['roster', 'import', schoolCsv(19, ['newcomer,New,Comer,student,3A', 'second,Sec,Ond,student,3B']), '--org', 'demo-school', '--json'], env);
  t.equal(json.code, 0);
  t.match(JSON.parse(json.stdout), { applied: true, errors: [] }, '--json: one object, applied');
  t.match(json.stderr, /warning: the import stands/);
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
