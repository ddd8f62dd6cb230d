import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { writeConfig } from '../helpers/config-file.js';
import {
  alertText, BADGE_KID, EMOJI_KID, exchange, followToCallback, HttpBrowser, idTokenClaims, openMethod, postBadge,
} from '../helpers/children.js';
import { location } from '../helpers/http-browser.js';
import { storedId } from '../../adapters/record-ids.js';

t.test('magic badge by typed code: any spelling of the code signs the holder in', async (t) => {
  const lanyard = await startLanyard(t);
  for (const typed of [BADGE_KID.code, BADGE_KID.code.toLowerCase().replace(/-/g, ' '), `LB1:${BADGE_KID.code.replace(/-/g, '')}`]) {
    const browser = new HttpBrowser();
    const step = await openMethod(browser, lanyard.url, 'badge');
    t.match(step.page, /Show your badge to the camera/);
    t.match(step.page, /src="\/assets\/jsqr.js"/, 'the QR decoder is served by Lanyard');
    const res = await postBadge(browser, lanyard.url, step, typed);
    t.equal(res.status, 303, `"${typed}" accepted`);
    const claims = idTokenClaims(await exchange(lanyard.url, await followToCallback(browser, lanyard.url, res)));
    t.equal(claims.given_name, 'Bex');
  }
  t.notOk(lanyard.logs.some((l) => l.includes('EDEM')), 'no badge code in the logs');
  const jsqr = await fetch(`${lanyard.url}/assets/jsqr.js`);
  t.equal(jsqr.status, 200);
  t.match(await jsqr.text(), /jsQR/);
});

t.test('unknown, revoked and other organisations’ badges are refused alike; guessing is throttled per device', async (t) => {
  const config = writeConfig((c) => {
    c.login_throttling = { badge_failures: 3 };
    c.organisations!.push({ slug: 'hill-academy', name: 'Hill Academy', users: [
      { username: 'hilda', given_name: 'Hilda', family_name: 'Hill', type: 'student', badge_code: 'HHHH-HHHH-HHHH-HHHH-HHHH-HHHH-HH' },
    ] });
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const demo = (await lanyard.store.findOrganisation('demo-school'))!;
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'badge');
  const other = await postBadge(browser, lanyard.url, step, 'HHHH-HHHH-HHHH-HHHH-HHHH-HHHH-HH');
  const garbage = await postBadge(browser, lanyard.url, step, 'not a badge');
  t.same([other.status, garbage.status], [401, 401]);
  t.equal(alertText(await other.text()), alertText(await garbage.text()), 'a badge of another school is just "did not work"');
  const third = await postBadge(browser, lanyard.url, step, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZ');
  t.equal(third.status, 429, 'the device is throttled after 3 unknown codes');
  t.ok(Number(third.headers.get('retry-after')) > 0, 'with Retry-After');
  const real = await postBadge(browser, lanyard.url, step, BADGE_KID.code);
  t.equal(real.status, 429, 'the device waits, whatever the code');

  // Another device is not affected, and a badge guess never locks the badge holder's account.
  const fresh = new HttpBrowser();
  const freshStep = await openMethod(fresh, lanyard.url, 'badge');
  t.equal((await postBadge(fresh, lanyard.url, freshStep, BADGE_KID.code)).status, 303, 'the holder signs in elsewhere');

  // Revoked: the whole organisation's badges.
  t.equal(await lanyard.store.revokeBadges({ organisationId: demo.id }), 1);
  const third2 = new HttpBrowser();
  const revokedStep = await openMethod(third2, lanyard.url, 'badge');
  const revoked = await postBadge(third2, lanyard.url, revokedStep, BADGE_KID.code);
  t.equal(revoked.status, 401, 'a revoked badge is refused');
  t.match(alertText(await revoked.text()) ?? '', /did not work/);
});

t.test('badge + emoji: two factors when the organisation asks for them', async (t) => {
  const config = writeConfig((c) => {
    const org = c.organisations![0]!;
    org.badge_requires_emoji = true;
    const kid = org.users!.find((u) => u.username === 'emoji-kid')!;
    kid.badge_code = 'EEEE-EEEE-EEEE-EEEE-EEEE-EEEE-EE';
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'badge');
  const secondStep = `${lanyard.url}/interaction/${step.uid}/badge/emoji`;
  t.equal((await browser.get(`${secondStep}?org=demo-school`)).status, 400, 'no pictures step before a badge');
  const afterBadge = await postBadge(browser, lanyard.url, step, 'EEEE-EEEE-EEEE-EEEE-EEEE-EEEE-EE');
  t.equal(afterBadge.status, 303, 'no sign-in yet: on to the pictures (303 after the POST)');
  t.equal(location(afterBadge, lanyard.url).pathname, `/interaction/${step.uid}/badge/emoji`);
  t.match(afterBadge.headers.get('set-cookie'), new RegExp(`^lanyard_badge_ticket=[^;]+; Path=/interaction/${step.uid}/badge; Max-Age=300; HttpOnly; SameSite=Lax`),
    'the ticket in a cookie for this sign-in\'s badge pages only, for five minutes');
  const ticket = browser.cookies.get('lanyard_badge_ticket')!;
  for (const visit of ['first', 'reload']) {
    const shown = await browser.get(location(afterBadge, lanyard.url).href);
    t.equal(shown.status, 200, `the pictures step (${visit}): a reload sends no badge again`);
    const page = await shown.text();
    t.match(page, /Hello \u2068Emmy\u2069! Tap your secret pictures/, 'greets the holder by name (isolated), as the keyboard does');
    t.notMatch(page, /name="username"|name="ticket"/, 'no username to type, no ticket in the page');
  }
  const post = (emoji: string[], tk = ticket) => {
    browser.cookies.set('lanyard_badge_ticket', tk);
    return browser.post(secondStep, { csrf: step.csrf, org: 'demo-school', emoji: emoji.join(','), go: '1' });
  };
  t.equal((await post(['cat', 'cat', 'cat', 'cat', 'cat', 'cat'])).status, 401, 'wrong pictures after a good badge');
  const forged = await post(EMOJI_KID.emoji, ticket.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
  t.equal(forged.status, 400, 'a forged ticket is refused');
  t.match(await forged.text(), /Show your badge again/);
  const res = await post(EMOJI_KID.emoji);
  t.equal(res.status, 303, 'badge + emoji signs in');
  t.notOk(browser.cookies.has('lanyard_badge_ticket'), 'the ticket is taken back');
  const claims = idTokenClaims(await exchange(lanyard.url, await followToCallback(browser, lanyard.url, res)));
  t.equal(claims.given_name, 'Emmy');
  const session = await lanyard.store.oidc.find('Session', storedId('Session', browser.cookies.get('_session')!));
  t.same(session?.amr, ['pop', 'pin', 'mfa'], 'the session records both factors (amr)');
});

t.test('an organisation chooses its methods', async (t) => {
  const config = writeConfig((c) => { c.organisations![0]!.login_methods = ['password']; });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const browser = new HttpBrowser();
  const emoji = await openMethod(browser, lanyard.url, 'emoji');
  t.equal(emoji.status, 404, 'emoji is not offered');
  t.match(emoji.page, /does not use this way of signing in/);
  const start = await browser.get(`${lanyard.url}/interaction/${emoji.uid}?org=demo-school`);
  t.equal(start.status, 303, 'one method: straight to it, no chooser');
  t.match(start.headers.get('location'), /\/password\?org=demo-school$/);
});
