import t from 'tap';
import { issueBadge } from '../../src/badges/badges.js';
import { ManualClock } from '../../src/clock.js';
import { classLinkCookie, classLinks, classroomDevice, tileClass } from '../helpers/class-sign-in.js';
import { alertText, demoAuthorizeUrl, exchange, followToCallback, HttpBrowser, idTokenClaims } from '../helpers/children.js';
import { writeConfig } from '../helpers/config-file.js';
import { hiddenField, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';

/**
 * A tapped tile offers the pupil the school's ways of signing in (docs/childrens-sign-in.md → Class sign-in):
 * the emoji keyboard first where the school uses pictures, the badge camera, the help code. Only the tapped
 * pupil's badge signs in; a wrong help code or badge speaks of the code or the badge, never of a username.
 */

/** A browser holding `cookie`, a fresh sign-in started: its uid and the interaction's base address. */
async function signInWith(lanyard: Lanyard, cookie: { name: string; value: string }, browser = new HttpBrowser()) {
  browser.cookies.set(cookie.name, cookie.value);
  const uid = location(await browser.get(demoAuthorizeUrl(lanyard.url)), lanyard.url).pathname.split('/')[2]!;
  return { browser, uid, base: `${lanyard.url}/interaction/${uid}` };
}

t.test('at a school with pictures and badges: the keyboard first, then the badge and the help code; only the pupil’s own badge', async (t) => {
  const clock = new ManualClock();
  const config = writeConfig((c) => { c.login_throttling = { ...c.login_throttling, badge_failures: 3 }; });
  const lanyard = await startLanyard(t, { clock, env: { LANYARD_CONFIG: config } });
  const { organisation, class: klass, pupils } = await tileClass(lanyard);
  const device = await classroomDevice(lanyard, clock, organisation.id, klass.id);
  const [ottoline, peregrine] = [pupils[0]!, pupils[1]!];
  const own = await issueBadge(lanyard.store, peregrine);
  const hers = await issueBadge(lanyard.store, ottoline);

  const { browser, base } = await signInWith(lanyard, device);
  const keyboard = await (await browser.get(`${base}/pupil/${peregrine.id}?org=demo-school`)).text();
  t.match(keyboard, /data-emoji-form/, 'the tile opens the keyboard');
  t.match(keyboard, new RegExp(`href="/interaction/[^/]+/pupil/${peregrine.id}/badge\\?org=demo-school">Show my badge</a>`), 'a link to the badge camera');
  t.match(keyboard, new RegExp(`href="/interaction/[^/]+/pupil/${peregrine.id}/help-code\\?org=demo-school">I have a help code</a>`), 'and to the help code');
  t.notMatch(keyboard, /name="pupil"/, 'no hidden field no one reads');

  // A wrong help code through the tile: about the code only.
  const helpPage = await (await browser.get(`${base}/pupil/${peregrine.id}/help-code?org=demo-school`)).text();
  t.match(helpPage, /id="help-code"[^>]*dir="ltr"/, 'the code runs left to right');
  t.match(helpPage, /Use my pictures<\/a>/, 'back to the pictures');
  const csrf = hiddenField(helpPage, 'csrf');
  const wrongCode = await browser.post(`${base}/pupil/${peregrine.id}/help-code`, { csrf, org: 'demo-school', code: '123456' });
  t.equal(wrongCode.status, 401);
  t.equal(alertText(await wrongCode.text()), 'That help code did not work. Check the code, or ask your teacher for a new one.', 'no username to check');

  // The badge camera for Peregrine.
  const scanner = await (await browser.get(`${base}/pupil/${peregrine.id}/badge?org=demo-school`)).text();
  t.match(scanner, /Hi \u2068Peregrine\u2069! Show your badge to the camera/, 'greets the pupil');
  t.match(scanner, new RegExp(`<form method="post" action="/interaction/[^/]+/pupil/${peregrine.id}/badge" data-badge-form`), 'posts for the pupil');
  t.match(scanner, /Use my pictures<\/a>/, 'the pictures one tap away');
  t.notMatch(scanner, />Show my badge</, 'not a link to itself');
  const badge = (code: string) => browser.post(`${base}/pupil/${peregrine.id}/badge`, { csrf, org: 'demo-school', code });
  const theirs = await badge(hers.code);
  t.equal(theirs.status, 401, 'Ottoline’s badge after Peregrine’s tile: refused');
  const notTheirs = alertText(await theirs.text());
  t.equal(notTheirs, 'That is not the badge of \u2068Peregrine\u2069. Show your own badge, or ask your teacher.', 'it says whose badge it must be');
  const nobody = await badge('ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZ');
  t.equal(alertText(await nobody.text()), notTheirs, 'a badge of no one: the same words (another pupil’s badge is not told apart)');
  t.equal((await badge(hers.code)).status, 429, 'counted as wrong tries: the device waits after three');
  t.notOk(lanyard.logs.some((l) => l.includes('"event":"login.succeeded"')), 'no one signed in');

  // On another classroom device, Peregrine's own badge signs him in.
  const other = await signInWith(lanyard, await classroomDevice(lanyard, clock, organisation.id, klass.id));
  const otherCsrf = hiddenField(await (await other.browser.get(`${other.base}/pupil/${peregrine.id}/badge?org=demo-school`)).text(), 'csrf');
  const signedIn = await other.browser.post(`${other.base}/pupil/${peregrine.id}/badge`, { csrf: otherCsrf, org: 'demo-school', code: own.code });
  t.equal(signedIn.status, 303, 'his own badge signs in');
  const claims = idTokenClaims(await exchange(lanyard.url, await followToCallback(other.browser, lanyard.url, signedIn)));
  t.equal(claims.given_name, 'Peregrine');
});

t.test('at a school without pictures: the tile opens the badge camera; the help code beside it', async (t) => {
  const clock = new ManualClock();
  const config = writeConfig((c) => { c.organisations![0]!.login_methods = ['password', 'badge']; });
  const lanyard = await startLanyard(t, { clock, env: { LANYARD_CONFIG: config } });
  const { organisation, class: klass, pupils } = await tileClass(lanyard);
  const device = await classroomDevice(lanyard, clock, organisation.id, klass.id);
  const peregrine = pupils[1]!;
  const { browser, base } = await signInWith(lanyard, device);
  const res = await browser.get(`${base}/pupil/${peregrine.id}?org=demo-school`);
  t.equal(res.status, 200);
  const page = await res.text();
  t.match(page, /data-badge-form/, 'the badge camera');
  t.match(page, /Show your badge to the camera/);
  t.notMatch(page, /data-emoji-form|Use my pictures/, 'no pictures at this school');
  t.match(page, /I have a help code<\/a>/, 'the help code');
  t.equal((await browser.post(`${base}/pupil/${peregrine.id}/emoji`, { csrf: hiddenField(page, 'csrf'), org: 'demo-school', emoji: 'dog', go: '1' })).status, 404,
    'and no keyboard to post to');
});

t.test('a class link that is over is forgotten by the browser on the sign-in screen', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });
  const { organisation, class: klass } = await tileClass(lanyard);
  const links = classLinks(lanyard, clock);
  const { link } = await links.create(organisation.id, klass.id, { id: 'u', username: 'teacher' }, new Date(clock.now().getTime() + 3_600_000));
  const cookie = await classLinkCookie(lanyard, link);
  const live = await signInWith(lanyard, cookie);
  const tiles = await live.browser.get(`${live.base}?org=demo-school`);
  t.match(await tiles.text(), /Who are you\?/, 'live: the tiles');
  t.notMatch(tiles.headers.get('set-cookie') ?? '', /lanyard_class=/, 'the link is kept');
  await links.revoke(organisation.id, link.id);
  const over = await live.browser.get(`${live.base}?org=demo-school`);
  t.notMatch(await over.text(), /Who are you\?/, 'revoked: no tiles');
  t.match(over.headers.get('set-cookie') ?? '', /lanyard_class=;[^,]*Max-Age=0/, 'and the cookie is cleared');
});
