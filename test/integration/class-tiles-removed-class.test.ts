import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { classLinkCookie, classLinks, classroomDevice, tileClass, TILE_PUPILS } from '../helpers/class-sign-in.js';
import { removeClass } from '../helpers/class-roster.js';
import { demoAuthorizeUrl, HttpBrowser } from '../helpers/children.js';
import { hiddenField, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * A class the roster has since removed (docs/childrens-sign-in.md → Class sign-in), on SQLite: a class link made
 * for it is still live in the store (the store keeps the class's id, not the class), and a classroom device is
 * still set to it. Neither shows a tile, names anyone or fails: the link's address is the one 404 page of a link
 * that ended (no cookie left), the sign-in screen is the ordinary chooser, a pupil's screen is the one 404 page,
 * and nothing is logged as an error.
 */

const NAMES = [...new Set(TILE_PUPILS.flat())];

t.test('a live class link (or a classroom device) of a class the roster removed: no tiles, no names, no error', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock });
  const { organisation, class: klass, pupils, emoji } = await tileClass(lanyard);
  const links = classLinks(lanyard, clock);
  const { link, code } = await links.create(organisation.id, klass.id, { id: 'u', username: 'teacher' }, new Date(clock.now().getTime() + 3_600_000));
  const cookies = [['a live class link', await classLinkCookie(lanyard, link)], ['a classroom device', await classroomDevice(lanyard, clock, organisation.id, klass.id)]] as const;
  const peregrine = pupils[1]!;

  const signIn = async (cookie: { name: string; value: string }) => {
    const browser = new HttpBrowser();
    browser.cookies.set(cookie.name, cookie.value);
    const uid = location(await browser.get(demoAuthorizeUrl(lanyard.url)), lanyard.url).pathname.split('/')[2]!;
    const res = await browser.get(`${lanyard.url}/interaction/${uid}?org=demo-school`);
    return { browser, base: `${lanyard.url}/interaction/${uid}`, status: res.status, page: await res.text() };
  };

  const openLink = async () => {
    const browser = new HttpBrowser();
    const res = await browser.get(`${lanyard.url}/class/${code}`, { accept: 'text/html' });
    return { status: res.status, page: await res.text(), cookie: browser.cookies.get('lanyard_class') };
  };
  const opened = await openLink();
  t.equal(opened.status, 303, 'before: the link opens (the test can fail)');
  t.ok(opened.cookie, 'before: it leaves the class-link cookie');

  for (const [label, cookie] of cookies) {
    const before = await signIn(cookie);
    t.match(before.page, /Who are you\?/, `${label}, before: the tiles (the test can fail)`);
    t.ok(before.page.includes('>Peregrine<'), `${label}, before: Peregrine's tile`);
  }

  await removeClass(lanyard.store, klass.id);
  t.equal(await lanyard.store.findClass(organisation.id, klass.id), undefined, 'the class is gone');
  t.ok(await links.live(organisation.id, link.id), 'its link is still live in the store');
  const errorsBefore = lanyard.logs.filter((l) => JSON.parse(l).level >= 50).length;

  const ended = await openLink();
  t.equal(ended.status, 404, 'the link of the removed class: 404');
  t.match(ended.page, 'This class link has ended or is wrong', 'the page of a link that ended');
  t.equal(ended.cookie, undefined, 'no class-link cookie left');

  for (const [label, cookie] of cookies) {
    const { browser, base, status, page } = await signIn(cookie);
    t.equal(status, 200, `${label}: the sign-in screen answers`);
    t.match(page, /How do you sign in\?/, `${label}: the ordinary chooser`);
    t.notOk(page.includes('name-tile'), `${label}: no tiles`);
    const csrf = hiddenField(page, 'csrf');
    for (const [what, res] of [
      ['the pupil’s screen', await browser.get(`${base}/pupil/${peregrine.id}?org=demo-school`)],
      ['their help code', await browser.get(`${base}/pupil/${peregrine.id}/help-code?org=demo-school`)],
      ['their pictures sent', await browser.post(`${base}/pupil/${peregrine.id}/emoji`, { csrf, org: 'demo-school', emoji: emoji.join(','), go: '1' })],
    ] as const) {
      const text = await res.text();
      t.equal(res.status, 404, `${label}: ${what} is the 404 page`);
      t.notOk(NAMES.some((n) => text.includes(n)), `${label}: ${what} names no one`);
    }
    t.notOk(NAMES.some((n) => page.includes(n)), `${label}: the chooser names no one`);
  }
  t.equal(lanyard.logs.filter((l) => JSON.parse(l).level >= 50).length, errorsBefore, 'nothing logged as an error');
});
