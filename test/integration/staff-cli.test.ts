import t from 'tap';
import type { CommandOutput } from '../../src/cli/output.js';
import { grantStaffCommand, listStaffCommand, revokeStaffCommand, type StaffListing } from '../../src/cli/run-staff.js';
import { systemClock } from '../../src/clock.js';
import { putClass } from '../helpers/class-roster.js';
import { lanyard as run } from '../helpers/cli.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';

/**
 * `lanyard staff grant | revoke | list` (docs/school-console.md → Who may do what), called as the commands run
 * them, against the store of a running Lanyard with the demo configuration (whose teacher is Demo School's
 * admin by the file), on SQLite and on Redis.
 */

function collect(): CommandOutput & { lines: string[]; notes: string[] } {
  const lines: string[] = [];
  const notes: string[] = [];
  return { lines, notes, out: (l) => lines.push(l), err: (l) => notes.push(l) };
}

const cells = (lines: string[]) => lines.map((l) => l.split(/\s{2,}/));

for (const backend of ['sqlite', 'redis'] as const) {
  t.test(`staff grant, revoke and list (${backend})`, async (t) => {
    const env = backend === 'redis' ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'staff') : undefined;
    const lanyard = await startLanyard(t, env ? { env } : {});
    const { store, config } = lanyard;
    const org = (await store.findOrganisation('demo-school'))!;
    const teacher = (await store.findUserByUsername(org.id, 'teacher'))!;
    const pupil = (await store.findUserByUsername(org.id, 'pupil'))!;
    await putClass(store, { organisationId: org.id, sourcedId: 'maths-10', title: 'Maths 10', pupils: [['Ben', 'Li']], prefix: 'm-', others: [{ user: teacher, role: 'teacher' }] });
    const target = (user: string, role: string) => ({ org: 'demo-school', user, role });
    const list = async () => {
      const io = collect();
      await listStaffCommand(config, systemClock, { org: 'demo-school' }, io);
      return cells(io.lines);
    };

    t.same(await list(), [['USERNAME', 'NAME', 'ROLES', 'TWO-STEP'], ['teacher', 'Tess Teacher', 'admin (config file), teacher (1 class)', 'off']],
      "the file's admin, who also teaches a class of the roster");

    const granted = collect();
    await grantStaffCommand(config, systemClock, target('pupil', 'teacher'), granted);
    t.same(granted.lines, ['granted teacher in Demo School to pupil (Pip Pupil)']);
    t.same(granted.notes, [], 'a teacher needs no two-step note');
    const again = collect();
    await grantStaffCommand(config, systemClock, target('pupil', 'teacher'), again);
    t.same(again.lines, ['pupil (Pip Pupil) is already teacher in Demo School; nothing changed']);
    const [grant] = await store.userStaffGrants(pupil.id);
    t.match(grant, { organisationId: org.id, userId: pupil.id, role: 'teacher', source: 'operator' }, "the operator's grant");
    t.ok(Math.abs(Date.parse(grant!.grantedAt) - Date.now()) < 60_000, 'granted now');

    const admin = collect();
    await grantStaffCommand(config, systemClock, target('pupil', 'admin'), admin);
    t.same(admin.notes, ['note: a school admin must use two-step sign-in: the console asks them to turn it on when they next sign in']);
    const taken = collect();
    await grantStaffCommand(config, systemClock, target('teacher', 'admin'), taken);
    t.same(taken.lines, ['teacher (Tess Teacher) was already admin in Demo School by the configuration file: now by the operator, which the configuration file leaves alone']);
    await store.putStaffSecondFactor({ userId: teacher.id, totpSecret: 'v1.iv.tag.s', recoveryCodeHashes: [], enabledAt: new Date().toISOString() });

    t.same(await list(), [
      ['USERNAME', 'NAME', 'ROLES', 'TWO-STEP'],
      ['pupil', 'Pip Pupil', 'admin (operator), teacher (operator)', 'off'],
      ['teacher', 'Tess Teacher', 'admin (operator), teacher (1 class)', 'on'],
    ], 'by username: every role with where it comes from, and two-step sign-in');
    const json = collect();
    await listStaffCommand(config, systemClock, { org: 'demo-school', json: true }, json);
    const listed = JSON.parse(json.lines.join('\n')) as StaffListing[];
    t.same(listed.map((s) => [s.username, s.userId, s.school, s.twoStep]), [['pupil', pupil.id, null, false], ['teacher', teacher.id, null, true]], '--json');
    t.same(listed[1]!.roles.map((r) => [r.role, r.source, r.classes?.length ?? null]), [['admin', 'operator', null], ['teacher', 'classes', 1]], '--json: roles');

    const revoked = collect();
    await revokeStaffCommand(config, systemClock, target('pupil', 'teacher'), revoked);
    t.same(revoked.lines, ['revoked teacher in Demo School from pupil (Pip Pupil)']);
    await t.rejects(revokeStaffCommand(config, systemClock, target('pupil', 'teacher'), collect()), { message: 'pupil (Pip Pupil) has no teacher grant in Demo School' }, 'not twice');
    await t.rejects(revokeStaffCommand(config, systemClock, target('teacher', 'teacher'), collect()),
      { message: 'teacher (Tess Teacher) has no teacher grant in Demo School; they teach 1 class there, as the roster says (a roster import changes that)' },
      "the roster's teaching is not a grant");
    await revokeStaffCommand(config, systemClock, target('pupil', 'admin'), collect());
    t.same(await store.userStaffGrants(pupil.id), [], 'every grant of the pupil gone');
    await t.rejects(grantStaffCommand(config, systemClock, target('techer', 'admin'), collect()), { message: 'no user "techer" in Demo School (did you mean teacher?)' });
    await t.rejects(listStaffCommand(config, systemClock, { org: 'demo-shcool' }, collect()), { message: 'no organisation "demo-shcool" (did you mean demo-school?)' });

    if (backend === 'sqlite') {
      // The real command: its table entry, --help and a mistyped role.
      const storeEnv = { LANYARD_STORE: config.storeUrl };
      const help = await run(['staff', '--help'], storeEnv);
      t.equal(help.code, 0);
      for (const name of ['grant', 'revoke', 'list']) t.match(help.stdout, `\n  ${name}`, `staff --help lists ${name}`);
      const typo = await run(['staff', 'grant', '--org', 'demo-school', '--user', 'pupil', '--role', 'admni'], storeEnv);
      t.equal(typo.code, 1);
      t.equal(typo.stderr, 'lanyard: --role is admin or teacher (did you mean admin?)\n');
      const real = await run(['staff', 'grant', '--org', 'demo-school', '--user', 'pupil', '--role', 'teacher'], storeEnv);
      t.equal(real.code, 0, real.stderr);
      t.equal(real.stdout, 'granted teacher in Demo School to pupil (Pip Pupil)\n');
      t.same((await store.userStaffGrants(pupil.id)).map((g) => [g.role, g.source]), [['teacher', 'operator']], 'written to the store');
    }
  });
}
