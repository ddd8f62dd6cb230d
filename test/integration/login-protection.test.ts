import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { writeConfig } from '../helpers/config-file.js';
import { EMOJI_KID, HttpBrowser, openMethod, postEmoji } from '../helpers/children.js';

t.test('a spray across many accounts from one source is throttled; known devices on the same network are not', async (t) => {
  const config = writeConfig((c) => { c.login_throttling = { ip_failures: 8, window_seconds: 600 }; });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const tablet = new HttpBrowser();
  const mine = await openMethod(tablet, lanyard.url, 'emoji');
  t.equal((await postEmoji(tablet, lanyard.url, mine, EMOJI_KID.username, EMOJI_KID.emoji)).status, 303, 'the pupil’s tablet is known');

  const attacker = new HttpBrowser();
  const step = await openMethod(attacker, lanyard.url, 'emoji');
  const statuses: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    statuses.push((await postEmoji(attacker, lanyard.url, step, `pupil-${i}`, ['cat', 'dog', 'cat', 'dog', 'cat', 'dog'])).status);
  }
  t.same(statuses.slice(0, 7), Array(7).fill(401), 'one try per account stays under every account’s limit');
  t.equal(statuses[7], 429, 'the address’s budget for new devices runs out');
  t.equal(statuses[9], 429);
  const fromNew = new HttpBrowser();
  const newStep = await openMethod(fromNew, lanyard.url, 'emoji');
  t.equal((await postEmoji(fromNew, lanyard.url, newStep, EMOJI_KID.username, EMOJI_KID.emoji)).status, 429, 'new devices from that address wait');
  const again = await openMethod(tablet, lanyard.url, 'emoji');
  t.equal((await postEmoji(tablet, lanyard.url, again, EMOJI_KID.username, EMOJI_KID.emoji)).status, 303, 'the known tablet still signs in');
});

t.test('when the counters cannot be used, low-entropy sign-in fails closed', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'emoji');
  const db = new Database(join(lanyard.dir, 'lanyard.db'));
  db.exec('DROP TABLE counters');
  db.close();
  const res = await postEmoji(browser, lanyard.url, step, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(res.status, 503, 'refused, even with the right pictures');
  t.match(await res.text(), /not possible for a moment/);
  t.ok(lanyard.logs.some((l) => l.includes('"event":"login.unavailable"')));
});

t.test('a burst of parallel guesses is not verified past the free attempts', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'emoji');
  const answers = await Promise.all(Array.from({ length: 20 }, () =>
    postEmoji(browser, lanyard.url, step, EMOJI_KID.username, ['cat', 'dog', 'cat', 'dog', 'cat', 'dog'])));
  const failed = lanyard.logs.filter((l) => l.includes('"event":"login.failed"')).length;
  t.equal(failed, 5, 'exactly the five free attempts were checked');
  t.ok(answers.filter((r) => r.status === 429).length >= 15, 'the fifteen others were throttled without being checked');
  t.ok(answers.every((r) => r.status === 401 || r.status === 429), 'and nothing else happened');
});
