import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { generateRoster } from '../../../../bench/roster/generate.js';
import { readRoster } from '../../../../src/roster/read/read-roster.js';
import { projectRoot } from '../../../../src/package-files.js';
import { tempDir } from '../../../helpers/roster-files.js';

/**
 * The bench's roster generator (bench/roster/generate.ts) writes a OneRoster 1.1 export the readers take
 * without an error, of the size asked, and the same bytes for the same arguments.
 */

const SHAPE = { users: 300, classes: 12, enrollments: 900, schools: 3, seed: 7 };

const fileHashes = (dir: string): Record<string, string> =>
  Object.fromEntries(readdirSync(dir).sort().map((f) => [f, createHash('sha256').update(readFileSync(join(dir, f))).digest('hex')]));

t.test('the same arguments write the same bytes; another seed, others', async (t) => {
  const dir = tempDir(t);
  await generateRoster(join(dir, 'a'), SHAPE);
  await generateRoster(join(dir, 'b'), SHAPE);
  await generateRoster(join(dir, 'c'), { ...SHAPE, seed: 8 });
  t.same(Object.keys(fileHashes(join(dir, 'a'))), ['academicSessions.csv', 'classes.csv', 'courses.csv', 'enrollments.csv', 'manifest.csv', 'orgs.csv', 'users.csv']);
  t.same(fileHashes(join(dir, 'b')), fileHashes(join(dir, 'a')), 'byte-identical');
  t.not(fileHashes(join(dir, 'c'))['enrollments.csv'], fileHashes(join(dir, 'a'))['enrollments.csv'], 'another seed, other enrolments');
  const r = await readRoster(join(dir, 'a'));
  // Pinned: a change to the generator changes every bench's input, so it shows here.
  t.equal(r.digest, '88ea18e855a6207911867f89aa7e6c7c5ef011a1d056c2d84b7117b08b220f5d', 'the digest of this size and seed');
});

t.test('read back: the counts asked, no errors, pupils and teachers, 1–2 teachers a class', async (t) => {
  const dir = tempDir(t);
  const made = await generateRoster(dir, SHAPE);
  t.same(made, { schools: 3, pupils: 279, teachers: 21, users: 300, classes: 12, enrollments: 900 });
  const r = await readRoster(dir);
  t.same(r.errors, []);
  t.same([r.orgs.length, r.users.length, r.classes.length, r.enrollments.length], [4, 300, 12, 900]);
  t.equal(r.users.filter((u) => u.roles[0]?.role === 'student').length, 279, '93 % pupils');
  t.ok(r.users.some((u) => u.roles.length === 2), 'some teachers are at two schools');
  t.ok(r.users.some((u) => !u.enabled) || r.users.length < 200, 'about one pupil in 200 is not enabled');
  for (const c of r.classes) {
    const here = r.enrollments.filter((e) => e.classSourcedId === c.sourcedId);
    const teachers = here.filter((e) => e.role === 'teacher').length;
    t.ok(teachers === 1 || teachers === 2, `${c.sourcedId}: ${teachers} teacher(s)`);
    t.ok(here.every((e) => e.schoolSourcedId === c.schoolSourcedId), `${c.sourcedId}: enrolments at its school`);
  }
  const pairs = new Set(r.enrollments.map((e) => `${e.classSourcedId} ${e.userSourcedId}`));
  t.equal(pairs.size, 900, 'nobody twice in a class');
});

t.test('the same district with some family names changed, for re-import benches', async (t) => {
  const dir = tempDir(t);
  await generateRoster(join(dir, 'a'), SHAPE);
  await generateRoster(join(dir, 'b'), { ...SHAPE, changed: 5 });
  const [a, b] = [fileHashes(join(dir, 'a')), fileHashes(join(dir, 'b'))];
  t.same(Object.keys(a).filter((f) => a[f] !== b[f]), ['users.csv'], 'only users.csv differs');
  const [before, after] = [await readRoster(join(dir, 'a')), await readRoster(join(dir, 'b'))];
  const differ = after.users.filter((u, i) => JSON.stringify(u) !== JSON.stringify(before.users[i]));
  t.equal(differ.length, 5, 'five people differ');
  t.ok(differ.every((u) => u.familyName.endsWith('-Hale') && before.users.find((x) => x.sourcedId === u.sourcedId)!.familyName === u.familyName.slice(0, -5)), 'by their family name alone');
});

t.test('as a script: OUTDIR and the sizes', async (t) => {
  const dir = tempDir(t);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/roster/generate.ts', join(dir, 'x'), '--users', '300', '--classes', '12', '--enrollments', '900', '--schools', '3', '--seed', '7'], { cwd: projectRoot, encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr);
  t.match(run.stdout, /3 schools, 279 pupils, 21 teachers, 12 classes, 900 enrolments/);
  const script = fileHashes(join(dir, 'x'));
  await generateRoster(join(dir, 'y'), SHAPE);
  t.same(script, fileHashes(join(dir, 'y')), 'the same files as the function writes');
});

t.test('a shape that cannot be is refused', async (t) => {
  const dir = tempDir(t);
  await t.rejects(generateRoster(dir, { users: 300, classes: 10, enrollments: 5 }), { message: /every class needs a teacher/ });
  await t.rejects(generateRoster(dir, { users: 300, classes: 3, enrollments: 3000, schools: 3 }), { message: /need more pupils than/ });
});
