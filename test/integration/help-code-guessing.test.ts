import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { HELP_CODE_MAX_FAILURES } from '../../src/accounts/help-codes.js';
import { alertText } from '../helpers/children.js';
import { giveHelpCode, openHelpCode, postHelpCode, tryHelpCode, useDemoApp } from '../helpers/help-codes.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';

/**
 * A help code's guessing protection (docs/security.md → Help codes): it works only for its pupil, once, before it
 * expires; 5 wrong codes for the pupil void it; tries are throttled per source like every sign-in; and a pupil
 * who may not sign in, or an app the school does not allow them, is refused as with every method. On SQLite and
 * on Redis.
 */

/** A wrong code for `right` (another 6 digits). */
const wrongFor = (right: string, n = 0) => String((Number(right) + 1 + n) % 1_000_000).padStart(6, '0');

for (const backend of ['sqlite', 'redis'] as const) {
  t.test(`${backend}: only its pupil, only before it expires, void after ${HELP_CODE_MAX_FAILURES} wrong tries, throttled per source`, async (t) => {
    const clock = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
    const env = backend === 'redis' ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'help-code-guessing') : undefined;
    const lanyard = await startLanyard(t, { clock, ...(env ? { env } : {}) });
    const { url, store } = lanyard;
    const north = await putConsoleSchool(store, 'north');
    await useDemoApp(store, north.organisation.id);
    const south = await putConsoleSchool(store, 'south');
    await useDemoApp(store, south.organisation.id);
    let teacher = await consoleSignInAsStaff(url, north.teacher.credentials, undefined, clock);
    const [ada, ben, chloe, lukasz] = north.taught.pupils;
    const give = async (userId: string) => (await giveHelpCode(teacher, url, 'north', userId)).code!;
    /** After the clock jumps by hours, the console's session (30 minutes idle) is over: sign in again. */
    const later = async (to: Date | number) => {
      if (typeof to === 'number') clock.advance(to);
      else clock.set(to);
      teacher = await consoleSignInAsStaff(url, north.teacher.credentials, undefined, clock);
    };

    t.test("a code is only its pupil's, at its school", async (t) => {
      const adas = await give(ada!.id);
      const bens = await give(ben!.id);
      t.equal((await tryHelpCode(url, 'north', ada!.username, bens)).status, 401, "Ben's code does not sign Ada in");
      t.equal((await tryHelpCode(url, 'south', ada!.username, adas)).status, 401, 'nor at another school');
      const southPupil = south.taught.pupils[0]!;
      t.equal((await tryHelpCode(url, 'south', southPupil.username, adas)).status, 401, "nor for another school's pupil");
      t.equal((await tryHelpCode(url, 'north', ben!.username, bens)).status, 303, 'Ben signs in with his own');
      t.equal((await tryHelpCode(url, 'north', ada!.username, adas)).status, 303, 'and Ada with hers (the wrong tries counted, did not void it)');
    });

    t.test(`${HELP_CODE_MAX_FAILURES} wrong codes void it`, async (t) => {
      const code = await give(chloe!.id);
      const answers: number[] = [];
      // Each from a fresh browser: a new source, so no wait comes between them.
      for (let i = 0; i < HELP_CODE_MAX_FAILURES; i += 1) answers.push((await tryHelpCode(url, 'north', chloe!.username, wrongFor(code, i))).status);
      t.same(answers, Array(HELP_CODE_MAX_FAILURES).fill(401));
      t.notOk(await store.findHelpCode(chloe!.id, clock.now().toISOString()), 'the code is gone');
      const right = await tryHelpCode(url, 'north', chloe!.username, code);
      t.equal(right.status, 401, 'the right code no longer works');
      const unknown = await tryHelpCode(url, 'north', 'nobody-here', code);
      t.equal(alertText(await right.text()), alertText(await unknown.text()), 'the same answer as for an unknown username');
    });

    t.test('tries are throttled per source', async (t) => {
      const code = await give(lukasz!.id);
      const guesser = new HttpBrowser();
      const step = await openHelpCode(guesser, url, 'north');
      const statuses: number[] = [];
      let last!: Response;
      for (let i = 0; i < 3; i += 1) {
        last = await postHelpCode(guesser, url, step, lukasz!.username, wrongFor(code, i));
        statuses.push(last.status);
      }
      t.same(statuses, [401, 401, 429], 'a new device: two free failures, the third starts a wait');
      t.ok(Number(last.headers.get('retry-after')) > 0, 'with Retry-After');
      t.match(await last.text(), /Too many tries/);
      t.equal((await postHelpCode(guesser, url, step, lukasz!.username, code)).status, 429, 'even the right code is not tried while waiting');
      t.ok(await store.findHelpCode(lukasz!.id, clock.now().toISOString()), 'so it is not used up');
      const typo = await postHelpCode(guesser, url, step, lukasz!.username, '12345');
      t.equal(typo.status, 400, 'five digits: a typing slip, not a try');
      t.match(await typo.text(), 'Type all 6 numbers');
      t.equal((await tryHelpCode(url, 'north', lukasz!.username, code)).status, 303, "another source is not held back by the guesser's tries");
    });

    t.test('a code stops working at the end of the school day', async (t) => {
      const code = await give(ada!.id);
      await later(new Date('2027-03-10T16:29:00.000Z'));
      const late = await give(ben!.id);
      t.equal((await store.findHelpCode(ben!.id, clock.now().toISOString()))!.expiresAt, '2027-03-10T16:30:00.000Z', 'given at 16:29: a minute');
      clock.set(new Date('2027-03-10T16:30:00.000Z'));
      t.equal((await tryHelpCode(url, 'north', ada!.username, code)).status, 401, 'expired at 16:30');
      t.equal((await tryHelpCode(url, 'north', ben!.username, late)).status, 401, 'the late one too');
      const evening = await give(chloe!.id);
      t.equal((await store.findHelpCode(chloe!.id, clock.now().toISOString()))!.expiresAt, '2027-03-11T00:30:00.000Z', 'after the day: 8 hours');
      clock.advance(8 * 60 * 60 * 1000);
      t.equal((await tryHelpCode(url, 'north', chloe!.username, evening)).status, 401, 'expired after 8 hours');
    });

    t.test('a pupil who may not sign in, or an app not for them, is refused as with every method', async (t) => {
      await later(0);
      const code = await give(ada!.id);
      await store.setSuspended(ada!.id, clock.now().toISOString());
      t.equal((await tryHelpCode(url, 'north', ada!.username, code)).status, 401, 'suspended after the code was given: refused, the same answer');
      await store.setSuspended(ada!.id, undefined);
      const bens = await give(ben!.id);
      await store.putConnection({ organisationId: north.organisation.id, clientId: 'demo-app', userTypes: ['teacher'], position: 0, source: 'operator', createdAt: clock.now().toISOString() });
      const refused = await tryHelpCode(url, 'north', ben!.username, bens);
      t.equal(refused.status, 403, 'the school uses the app for teachers only');
      t.match(await refused.text(), 'not available at your school');
    });
  });
}
