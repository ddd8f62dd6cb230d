import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { BADGE_WAY, EMOJI_WAY, refusedSignIn, signInAs } from '../helpers/account-session.js';
import { startLanyard } from '../helpers/lanyard.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * The time of each successful sign-in is kept (RosterStore.recordSignIn), by every method, for `users list`
 * and the leavers' report; a refused one is not a sign-in; and a sign-in goes ahead when the time cannot
 * be written.
 */

t.test('a successful sign-in records its time, by password, emoji password and badge; a refused one does not', async (t) => {
  const lanyard = await startLanyard(t);
  const school = (await lanyard.store.findOrganisation('demo-school'))!;
  const times = () => lanyard.store.lastSignIns(school.id);

  t.equal((await refusedSignIn(lanyard.url, { password: { ...TEACHER, password: 'not-it' } })).status, 401, 'a wrong password');
  t.same(await times(), new Map(), 'is not recorded');

  const before = Date.now();
  const teacher = await signInAs(lanyard.url, { password: TEACHER });
  const after = Date.now();
  const at = (await times()).get(teacher.claims.sub);
  t.ok(at !== undefined && Date.parse(at) >= before && Date.parse(at) <= after, `the password sign-in, at its time (${at})`);
  t.same([...(await times()).keys()], [teacher.claims.sub], 'only the one who signed in');

  const kid = await signInAs(lanyard.url, EMOJI_WAY);
  t.ok((await times()).has(kid.claims.sub), 'an emoji password sign-in');
  const badged = await signInAs(lanyard.url, BADGE_WAY);
  t.ok((await times()).has(badged.claims.sub), 'a badge sign-in');

  const again = await signInAs(lanyard.url, { password: TEACHER });
  t.equal(again.claims.sub, teacher.claims.sub);
  t.ok(Date.parse((await times()).get(teacher.claims.sub)!) >= Date.parse(at!), 'signing in again moves it on');
});

t.test('a sign-in whose time cannot be written still signs the person in, and says so in the log', async (t) => {
  const lanyard = await startLanyard(t);
  // A real refusal by the database, of that one table's writes only.
  const db = new Database(join(lanyard.dir, 'lanyard.db'));
  db.exec(`CREATE TRIGGER no_sign_in_times BEFORE INSERT ON user_sign_ins BEGIN SELECT RAISE(ABORT, 'sign-in times refused'); END;`);
  db.close();

  const teacher = await signInAs(lanyard.url, { password: TEACHER });
  t.ok(teacher.claims.sub, 'signed in: the app got its tokens');
  t.same(await lanyard.store.lastSignIns((await lanyard.store.findOrganisation('demo-school'))!.id), new Map(), 'no time was recorded');
  const line = lanyard.logs.map((l) => JSON.parse(l) as { event?: string; accountId?: string; level: number }).find((l) => l.event === 'login.sign_in_unrecorded');
  t.same(line && { accountId: line.accountId, level: line.level }, { accountId: teacher.claims.sub, level: 40 }, 'a warning names the account');
});
