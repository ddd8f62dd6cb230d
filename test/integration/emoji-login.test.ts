import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { startLanyard } from '../helpers/lanyard.js';
import {
  alertText, EMOJI_KID, exchange, followToCallback, HttpBrowser, idTokenClaims, openMethod, postEmoji,
} from '../helpers/children.js';
import { hiddenField } from '../helpers/http-browser.js';

t.test('emoji password: a full sign-in, with and without JavaScript', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'emoji');
  t.equal(step.status, 200);
  t.equal((step.page.match(/class="emoji-key"/g) ?? []).length, 84, 'the whole bank on the keyboard');
  t.match(step.page, /aria-label="dog"/, 'each picture has an accessible name');
  t.ok(browser.cookies.get('lanyard_device'), 'the browser got a device cookie');

  // Without JavaScript: every tap posts the form, the server keeps the sequence.
  let res = await browser.post(`${lanyard.url}/interaction/${step.uid}/emoji`, { csrf: step.csrf, org: 'demo-school', username: EMOJI_KID.username, emoji: '', add: 'dog' });
  let page = await res.text();
  t.equal(res.status, 200);
  t.equal(hiddenField(page, 'emoji'), 'dog', 'one picture chosen');
  t.match(page, /1 of 6 pictures chosen/);
  res = await browser.post(`${lanyard.url}/interaction/${step.uid}/emoji`, { csrf: step.csrf, org: 'demo-school', username: EMOJI_KID.username, emoji: 'dog,cat', del: '1' });
  t.equal(hiddenField(await res.text(), 'emoji'), 'dog', 'delete removes the last one');
  res = await postEmoji(browser, lanyard.url, step, EMOJI_KID.username, EMOJI_KID.emoji.slice(0, 5));
  t.equal(res.status, 400, 'five pictures are not enough');
  t.match(await res.text(), /Tap all 6/);

  res = await postEmoji(browser, lanyard.url, step, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(res.status, 303);
  const callback = await followToCallback(browser, lanyard.url, res);
  const claims = idTokenClaims(await exchange(lanyard.url, callback));
  t.equal(claims.given_name, 'Emmy');
  t.equal(claims.type, 'student');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"login.succeeded"') && l.includes('"method":"emoji"')));
  t.notOk(lanyard.logs.some((l) => l.includes('rocket')), 'no emoji password in the logs');
});

t.test('wrong pictures and unknown user: the same answer', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'emoji');
  const wrong = await postEmoji(browser, lanyard.url, step, EMOJI_KID.username, ['cat', 'cat', 'cat', 'cat', 'cat', 'cat']);
  const unknown = await postEmoji(browser, lanyard.url, step, 'nobody-here', EMOJI_KID.emoji);
  const noEmoji = await postEmoji(browser, lanyard.url, step, 'teacher', EMOJI_KID.emoji);
  const texts = await Promise.all([wrong, unknown, noEmoji].map(async (r) => alertText(await r.text())));
  t.same([wrong.status, unknown.status, noEmoji.status], [401, 401, 401]);
  t.ok(texts[0], 'a message is shown');
  t.same(texts, [texts[0], texts[0], texts[0]], 'identical for a wrong secret, an unknown user and a user without an emoji password');
});

t.test('guessing: waits after a few tries, Retry-After, the pupil’s own device unaffected', async (t) => {
  const clock = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
  const lanyard = await startLanyard(t, { clock });
  const issuer = lanyard.url;

  // The pupil's tablet: signs in once, so it becomes a known device for emoji-kid.
  const tablet = new HttpBrowser();
  const first = await openMethod(tablet, issuer, 'emoji');
  t.equal((await postEmoji(tablet, issuer, first, EMOJI_KID.username, EMOJI_KID.emoji)).status, 303);

  // Someone else guesses from another device.
  const attacker = new HttpBrowser();
  const step = await openMethod(attacker, issuer, 'emoji');
  const wrong = ['cat', 'cat', 'cat', 'cat', 'cat', 'cat'];
  const statuses: number[] = [];
  let last!: Response;
  for (let i = 0; i < 3; i += 1) {
    last = await postEmoji(attacker, issuer, step, EMOJI_KID.username, wrong);
    statuses.push(last.status);
  }
  t.same(statuses, [401, 401, 429], 'a new device: two free failures, the third starts a wait');
  t.equal(last.headers.get('retry-after'), '5', 'Retry-After: 5 seconds');
  t.match(await last.text(), /Too many tries/);
  const blocked = await postEmoji(attacker, issuer, step, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(blocked.status, 429, 'even the right pictures are not checked while waiting');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"login.throttled"')), 'login.throttled logged');

  // The pupil's own tablet still signs in.
  const again = await openMethod(tablet, issuer, 'emoji');
  t.equal((await postEmoji(tablet, issuer, again, EMOJI_KID.username, EMOJI_KID.emoji)).status, 303, 'known device not locked out');
  // Only the attacked factor is suspended: the same account's other factors are untouched.
  const other = new HttpBrowser();
  const teacherPw = await openMethod(other, issuer, 'password');
  const pw = await other.post(`${issuer}/interaction/${teacherPw.uid}/password`, { csrf: teacherPw.csrf, org: 'demo-school', username: EMOJI_KID.username, password: 'whatever-1' });
  t.equal(pw.status, 401, 'password attempts for the same username are not throttled by emoji failures');

  clock.advance(6_000);
  const later = await postEmoji(attacker, issuer, step, EMOJI_KID.username, wrong);
  t.equal(later.status, 429, 'one more failure after the wait: a longer wait');
  t.equal(later.headers.get('retry-after'), '10', 'the wait doubles');
  clock.advance(11_000);
  const ok = await postEmoji(attacker, issuer, step, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(ok.status, 303, 'after the wait the right pictures work from the new device too');
});
