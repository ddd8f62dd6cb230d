import t from 'tap';
import type { StoreEntry } from '../../adapters/store.js';
import type { CommandOutput } from '../../src/cli/output.js';
import { deleteUserCommand, listUsersCommand, signOutCommand, suspendCommand, unsuspendCommand } from '../../src/cli/run-users.js';
import { systemClock } from '../../src/clock.js';
import { assertSession, BADGE_WAY, EMOJI_WAY, refusedSignIn, signInAs, type Way } from '../helpers/account-session.js';
import { putHold } from '../helpers/class-roster.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { PUPIL, TEACHER } from '../helpers/sign-in.js';

/**
 * `lanyard users signout | suspend | unsuspend | delete | list` (docs/configuration.md → Adding clients and users), called as the commands run
 * them, against the store of a running Lanyard: each takes effect at once on the sessions and tokens
 * already given out.
 */

function collect(): CommandOutput & { out: (l: string) => void; lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l) };
}

const target = (user: string) => ({ org: 'demo-school', user });

async function exported(lanyard: Lanyard): Promise<StoreEntry[]> {
  const out: StoreEntry[] = [];
  for await (const e of lanyard.store.exportEntries()) out.push(e);
  return out;
}

/** The message a wrong secret gets, for comparing with what a suspended user with the right one is told. */
const WRONG: Record<string, Way> = {
  password: { password: { ...TEACHER, password: 'not-the-password' } },
  emoji: { emoji: ['cat', 'cat', 'cat', 'cat', 'cat', 'cat'] },
  badge: { badge: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZ' },
};

t.test('`users signout` ends the user\'s session and tokens everywhere, and no one else\'s', async (t) => {
  const lanyard = await startLanyard(t);
  const laptop = await signInAs(lanyard.url, { password: TEACHER });
  const tablet = await signInAs(lanyard.url, { password: TEACHER });
  const pupil = await signInAs(lanyard.url, { password: PUPIL });
  const io = collect();
  await signOutCommand(lanyard.config, systemClock, target('teacher'), io);
  t.match(io.lines.join('\n'), /signed out of Lanyard everywhere/);
  await assertSession(t, laptop, lanyard.url, false, 'the laptop');
  await assertSession(t, tablet, lanyard.url, false, 'the tablet');
  await assertSession(t, pupil, lanyard.url, true, 'another user');
  const back = await signInAs(lanyard.url, { password: TEACHER }, laptop.browser);
  await assertSession(t, back, lanyard.url, true, 'signing in again afterwards');
});

t.test('records written back after a sign-out (a request under way) do not count: sessionsValidAfter decides', async (t) => {
  const lanyard = await startLanyard(t);
  const teacher = await signInAs(lanyard.url, { password: TEACHER });
  const records = (await exported(lanyard)).filter((e) => e.kind === 'oidc' && e.value.payload.accountId === teacher.claims.sub);
  t.ok(['Session', 'Grant', 'AccessToken', 'RefreshToken'].every((m) => records.some((e) => e.kind === 'oidc' && e.value.model === m)),
    'the session, grant and tokens are in the store');
  // Stamps are whole seconds: the sign-in must be in an earlier second than the sign-out.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await signOutCommand(lanyard.config, systemClock, target('teacher'), collect());
  await lanyard.store.importEntries(records);
  t.equal((await exported(lanyard)).filter((e) => e.kind === 'oidc' && e.value.payload.accountId === teacher.claims.sub).length,
    records.length, 'every record is back in the store');
  await assertSession(t, teacher, lanyard.url, false, 'with its records written back');
});

t.test('`users suspend`: signed out, no sign-in by any method (answered as a wrong secret); `unsuspend` lets them back', async (t) => {
  const lanyard = await startLanyard(t);
  const cases: [string, Way, string][] = [
    ['password', { password: TEACHER }, 'teacher'],
    ['emoji', EMOJI_WAY, 'emoji-kid'],
    ['badge', BADGE_WAY, 'badge-kid'],
  ];
  for (const [method, way, username] of cases) {
    const before = await signInAs(lanyard.url, way);
    await suspendCommand(lanyard.config, systemClock, target(username), collect());
    await assertSession(t, before, lanyard.url, false, `${method}: suspended`);

    const refused = await refusedSignIn(lanyard.url, way);
    const wrong = await refusedSignIn(lanyard.url, WRONG[method]!);
    t.equal(refused.status, 401, `${method}: the right secret does not sign a suspended user in`);
    t.equal(refused.message, wrong.message, `${method}: with exactly the answer a wrong secret gets`);

    const io = collect();
    await unsuspendCommand(lanyard.config, systemClock, target(username), io);
    t.match(io.lines.join('\n'), /can sign in again/);
    const after = await signInAs(lanyard.url, way);
    await assertSession(t, after, lanyard.url, true, `${method}: after unsuspend`);
    await assertSession(t, before, lanyard.url, false, `${method}: what the suspension ended stays ended`);
    t.same(after.claims.sub, before.claims.sub, `${method}: the same sub`);
    for (const claim of ['given_name', 'family_name', 'type', 'email']) {
      t.equal(after.claims[claim], before.claims[claim], `${method}: ${claim} unchanged by suspension`);
    }
  }
});

t.test('a suspension holds while the user is still in the configuration file, across a restart', async (t) => {
  const first = await startLanyard(t);
  await suspendCommand(first.config, systemClock, target('teacher'), collect());
  await first.stop();
  const second = await startLanyard(t, { dir: first.dir });
  t.equal((await refusedSignIn(second.url, { password: TEACHER })).status, 401, 'the startup import does not lift it');
});

t.test('`users delete` erases the user, their credentials, badge, grants and tokens; the sub is never reused', async (t) => {
  const lanyard = await startLanyard(t);
  const kid = await signInAs(lanyard.url, BADGE_WAY);
  const teacher = await signInAs(lanyard.url, { password: TEACHER });
  const sub = kid.claims.sub;
  t.ok(JSON.stringify(await exported(lanyard)).includes(sub), 'before: the store holds the user, their badge and sessions');

  const io = collect();
  await deleteUserCommand(lanyard.config, systemClock, target('badge-kid'), io);
  t.match(io.lines.join('\n'), new RegExp(`deleted from Demo School.*${sub} is never reused`));
  t.match(io.errors.join('\n'), /still in the configuration file .*: the next start creates them again, as a new user with a new id/,
    'warns that the configuration file would bring them back');
  await assertSession(t, kid, lanyard.url, false, 'the deleted user');
  await assertSession(t, teacher, lanyard.url, true, 'another user');
  t.equal((await refusedSignIn(lanyard.url, BADGE_WAY)).status, 401, 'the badge no longer signs in');

  // The school's audit trail keeps what happened until its retention period ends (docs/configuration.md).
  const traces = (await exported(lanyard)).filter((e) => e.kind !== 'audit_event' && JSON.stringify(e.value).includes(sub));
  t.same(traces.map((e) => e.kind), ['retired_user'], 'the store keeps nothing of the user but the retired id, and the audit trail');

  // The configuration file still lists badge-kid: a restart creates a new user, never with the old sub.
  await lanyard.stop();
  const again = await startLanyard(t, { dir: lanyard.dir });
  const back = await signInAs(again.url, BADGE_WAY);
  t.not(back.claims.sub, sub, 'the user created again has another sub');
});

t.test('`users list` shows each user\'s ways in and state, never a secret', async (t) => {
  const lanyard = await startLanyard(t);
  await suspendCommand(lanyard.config, systemClock, target('pupil'), collect());
  const org = (await lanyard.store.findOrganisation('demo-school'))!;
  // Emmy left the school's roster; Bex is disabled in its system: neither can sign in.
  await putHold(lanyard.store, (await lanyard.store.findUserByUsername(org.id, 'emoji-kid'))!.id, 'left', '2025-06-30T22:15:00.000Z');
  await putHold(lanyard.store, (await lanyard.store.findUserByUsername(org.id, 'badge-kid'))!.id, 'disabled', '2025-07-01T08:00:00.000Z');
  const text = collect();
  await listUsersCommand(lanyard.config, systemClock, { org: 'demo-school' }, text);
  t.same(text.lines.map((l) => l.split(/\s{2,}/)), [
    ['USERNAME', 'NAME', 'TYPE', 'CLASSES', 'CREDENTIALS', 'BADGE', 'STATUS', 'LAST SIGN-IN'],
    ['badge-kid', 'Bex Badge', 'student', '-', '-', 'yes', 'disabled since 2025-07-01', 'never'],
    ['emoji-kid', 'Emmy Emoji', 'student', '-', 'emoji', 'no', 'left since 2025-06-30', 'never'],
    ['pupil', 'Pip Pupil', 'student', '-', 'password', 'no', 'suspended', 'never'],
    ['teacher', 'Tess Teacher', 'employee', '-', 'password', 'no', 'active', 'never'],
  ], 'one row per user, by username; leavers and disabled users are not active');
  const json = collect();
  await listUsersCommand(lanyard.config, systemClock, { org: 'demo-school', json: true }, json);
  const listed = JSON.parse(json.lines.join('\n')) as {
    username: string; credentials: string[]; badge: boolean; suspended: boolean; id: string; rosterHold: string | null; rosterHoldSince: string | null;
  }[];
  t.same(listed.map((u) => [u.username, u.credentials, u.badge, u.suspended, u.rosterHold, u.rosterHoldSince]), [
    ['badge-kid', [], true, false, 'disabled', '2025-07-01T08:00:00.000Z'],
    ['emoji-kid', ['emoji'], false, false, 'left', '2025-06-30T22:15:00.000Z'],
    ['pupil', ['password'], false, true, null, null],
    ['teacher', ['password'], false, false, null, null],
  ], '--json: the same, the hold with its time');
  t.match(listed[0]!.id, /^u\d{15}$/, 'with the id (the sub apps know)');
  for (const out of [text.lines.join('\n'), json.lines.join('\n')]) {
    t.notMatch(out, /argon2|teacher-pass|pupil-pass|BADG-EDEM|dog/, 'no secret, no hash');
  }
  await t.rejects(listUsersCommand(lanyard.config, systemClock, { org: 'nowhere' }, collect()), /no organisation "nowhere"/);
  await t.rejects(suspendCommand(lanyard.config, systemClock, target('nobody'), collect()), /no user "nobody" in Demo School/);
});
