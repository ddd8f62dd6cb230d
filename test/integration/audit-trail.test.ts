import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import type { AuditEvent, AuditKind } from '../../adapters/store.js';
import { systemClock } from '../../src/clock.js';
import { issueCredentialsCommand } from '../../src/cli/run-credentials.js';
import { revokeBadgesCommand } from '../../src/cli/run-badges.js';
import { issueEmojiPasswordCommand, setPasswordCommand } from '../../src/cli/run-users.js';
import { EMOJI_WAY, refusedSignIn, signInAs } from '../helpers/account-session.js';
import { EMOJI_KID, openMethod, postEmoji } from '../helpers/children.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { startRedis } from '../helpers/redis-server.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';

/** The audit trail as the running server writes it (docs/storage.md → The audit trail), on SQLite and on Redis. */

const DAY = new Date().toISOString().slice(0, 10);
const QUIET = { out: () => {}, err: () => {} };

/** The school's events once the recorder has written them (failures are recorded just after their answer). */
async function trail(lanyard: Lanyard, kinds: AuditKind[], least: number): Promise<AuditEvent[]> {
  const school = (await lanyard.store.findOrganisation('demo-school'))!;
  for (let tries = 0; ; tries += 1) {
    await lanyard.audit.flush();
    const events = await lanyard.store.queryAudit({ organisationId: school.id, kinds, limit: 1000 });
    if (events.length >= least || tries >= 40) return events;
    await sleep(50);
  }
}

async function ids(lanyard: Lanyard) {
  const school = (await lanyard.store.findOrganisation('demo-school'))!;
  const user = async (username: string) => (await lanyard.store.findUserByUsername(school.id, username))!;
  return { school, teacher: await user('teacher'), kid: await user(EMOJI_KID.username), pupil: await user('pupil') };
}

/** The dashboard signed in (through Lanyard's own client), then a tile launched. */
async function launchFromDashboard(lanyard: Lanyard, clientId: string): Promise<number> {
  const browser = new HttpBrowser();
  const start = await browser.get(`${lanyard.url}/sign-in?org=demo-school`);
  const done = await signIn(browser, lanyard.url, location(start, lanyard.url), TEACHER);
  await browser.get(done);
  const home = await (await browser.get(`${lanyard.url}/`)).text();
  return (await browser.post(`${lanyard.url}/launch/${clientId}`, { csrf: hiddenField(home, 'csrf') })).status;
}

const backends = [
  { name: 'sqlite', env: async () => ({}) },
  {
    name: 'redis',
    env: async (tt: Test) => ({
      LANYARD_STORE: (await startRedis(tt)).url,
      LANYARD_REDIS_PREFIX: `audit-${randomBytes(4).toString('hex')}`,
      LANYARD_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    }),
  },
];

for (const backend of backends) {
  t.test(`${backend.name}: sign-ins by password and emoji, their failures and a launch are in the trail, nothing typed`, async (t) => {
    const lanyard = await startLanyard(t, { env: await backend.env(t) });
    const { school, teacher, kid } = await ids(lanyard);
    await signInAs(lanyard.url, { password: TEACHER });
    t.equal((await refusedSignIn(lanyard.url, { password: { ...TEACHER, password: 'wrong-password-1234' } })).status, 401);
    await signInAs(lanyard.url, EMOJI_WAY);
    t.equal((await refusedSignIn(lanyard.url, { emoji: [...EMOJI_KID.emoji].reverse(), username: EMOJI_KID.username })).status, 401);
    t.equal((await refusedSignIn(lanyard.url, { password: { username: 'nobody-typed-this', password: 'x-typed-secret-x' } })).status, 401);
    t.equal(await launchFromDashboard(lanyard, 'demo-app'), 303, 'launched');

    const signIns = await trail(lanyard, ['sign_in'], 3);
    const base = { organisationId: school.id, action: 'sign_in', source: '127.0.0.1', count: 1 };
    t.match(signIns.find((e) => e.subjectId === teacher.id && e.clientId === 'demo-app'), {
      ...base, kind: 'sign_in', actorId: teacher.id, actorName: 'Tess Teacher', subjectName: 'Tess Teacher', method: 'password',
      deviceKind: 'other', result: 'success',
    }, 'the teacher\'s password sign-in to the app');
    t.match(signIns.find((e) => e.subjectId === kid.id), { ...base, kind: 'sign_in', actorId: kid.id, method: 'emoji', clientId: 'demo-app', result: 'success' },
      'the pupil\'s emoji sign-in');
    t.match(signIns.find((e) => e.clientId === 'lanyard'), { actorId: teacher.id, method: 'password' }, 'the dashboard\'s own sign-in');
    const failures = await trail(lanyard, ['sign_in_failed'], 3);
    t.equal(failures.length, 3, 'three failures, each its own row');
    t.match(failures.find((e) => e.method === 'password' && e.subjectId === teacher.id), {
      ...base, kind: 'sign_in_failed', subjectName: 'Tess Teacher', result: 'wrong_credential', clientId: 'demo-app',
      aggregate: `fail:${DAY}:127.0.0.1:password:${teacher.id}`,
    }, 'a wrong password, naming whose it was');
    t.match(failures.find((e) => e.method === 'emoji'), { subjectId: kid.id, result: 'wrong_credential', aggregate: `fail:${DAY}:127.0.0.1:emoji:${kid.id}` });
    const unknown = failures.find((e) => e.method === 'password' && e.subjectId === undefined);
    t.match(unknown, { aggregate: `fail:${DAY}:127.0.0.1:password:?`, result: 'wrong_credential' }, 'a username that is no one: no one named');
    t.equal(unknown?.actorId, undefined, 'and no actor');
    t.match(await trail(lanyard, ['launch'], 1), [{ organisationId: school.id, kind: 'launch', action: 'launch', actorId: teacher.id, subjectId: teacher.id, clientId: 'demo-app' }]);
    const all = JSON.stringify(await lanyard.store.queryAudit({ organisationId: school.id, limit: 1000 }));
    for (const typed of ['wrong-password-1234', 'nobody-typed-this', 'x-typed-secret-x', 'teacher-pass', EMOJI_KID.emoji.join(',')]) {
      t.notOk(all.includes(typed), `nothing typed is kept (${typed})`);
    }
    const usage = await lanyard.store.auditUsage(school.id, DAY, DAY);
    t.match(usage, [{ day: DAY, signInsByMethod: { password: 2, emoji: 1 }, byApp: { 'demo-app': 3, lanyard: 1 }, failures: 3 }], 'the day\'s use');
  });
}

t.test('a flood of failures from one address stays one row per person and method, whatever is typed', async (t) => {
  const lanyard = await startLanyard(t);
  const { kid } = await ids(lanyard);
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'emoji');
  const statuses = new Set<number>();
  for (let i = 0; i < 12; i += 1) {
    statuses.add((await postEmoji(browser, lanyard.url, step, EMOJI_KID.username, [...EMOJI_KID.emoji].reverse())).status);
    statuses.add((await postEmoji(browser, lanyard.url, step, `guess-${i}-${randomBytes(3).toString('hex')}`, EMOJI_KID.emoji)).status);
  }
  t.ok(statuses.has(401) && statuses.has(429), 'wrong, then throttled');
  await trail(lanyard, ['sign_in_failed'], 2);
  await sleep(200); // the last answers' failures are recorded just after them
  const rows = await trail(lanyard, ['sign_in_failed'], 2);
  t.same(rows.map((e) => [e.subjectId ?? '?', e.count]).sort(), [['?', 12], [kid.id, 12]].sort(), 'two rows, every attempt counted');
  t.same([...new Set(rows.map((e) => e.result))], ['wrong_credential'], 'each row keeps its first result');
});

t.test('credential changes made on the command line are in the trail, by the operator', async (t) => {
  const lanyard = await startLanyard(t);
  const { pupil, kid } = await ids(lanyard);
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-audit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await setPasswordCommand(lanyard.config, systemClock, { org: 'demo-school', user: 'pupil', generate: true, stdin: false }, QUIET);
  await issueEmojiPasswordCommand(lanyard.config, systemClock, 'demo-school', EMOJI_KID.username, QUIET);
  await issueCredentialsCommand(lanyard.config, systemClock, {
    org: 'demo-school', users: ['pupil'], method: 'badge', onlyMissing: false, out: join(dir, 'badges.pdf'), force: false, paper: 'a4',
  }, QUIET);
  await revokeBadgesCommand(lanyard.config, systemClock, 'demo-school', 'pupil');
  const changes = await trail(lanyard, ['credential'], 4);
  t.same(changes.map((e) => [e.action, e.subjectId, e.actorId, e.actorName]).reverse(), [
    ['password.reset', pupil.id, 'operator', 'operator'],
    ['emoji.reset', kid.id, 'operator', 'operator'],
    ['badge.issued', pupil.id, 'operator', 'operator'],
    ['badge.voided', pupil.id, 'operator', 'operator'],
  ], 'each change, in order, naming whom it concerned');
});
