import t, { type Test } from 'tap';
import { ManualClock } from '../../src/clock.js';
import { classLinkCookie, classLinks, classroomDevice, SUSPENDED, tileClass, TILE_PUPILS } from '../helpers/class-sign-in.js';
import { putClass } from '../helpers/class-roster.js';
import { alertText, demoAuthorizeUrl, followToCallback, HttpBrowser } from '../helpers/children.js';
import { hiddenField, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';

/**
 * Class sign-in's privacy over HTTP (docs/childrens-sign-in.md → Class sign-in): no answer of the sign-in
 * screens names a pupil unless the browser is a trusted classroom device of the school set to the class, or holds
 * a live class link of the school; and then only first names (a surname initial where two share one), never
 * surnames or usernames, and never a pupil who may not sign in. On both stores.
 */

const FIRST_NAMES = [...new Set(TILE_PUPILS.map(([given]) => given))];
const SURNAMES = TILE_PUPILS.map(([, family]) => family);

/** A fresh sign-in for the demo app on `browser`: its uid. */
async function startSignIn(browser: HttpBrowser, issuer: string): Promise<string> {
  return location(await browser.get(demoAuthorizeUrl(issuer)), issuer).pathname.split('/')[2]!;
}

/** Every answer of the sign-in screens a browser might ask for, about a real pupil: status and text. */
async function everyAnswer(browser: HttpBrowser, issuer: string, pupilId: string): Promise<{ what: string; status: number; text: string }[]> {
  const uid = await startSignIn(browser, issuer);
  const base = `${issuer}/interaction/${uid}`;
  const chooser = await (await browser.get(`${base}?org=demo-school`)).text();
  const csrf = hiddenField(chooser, 'csrf');
  const answers = [];
  for (const [what, res] of [
    ['the sign-in screen', await browser.get(`${base}?org=demo-school`)],
    ['the sign-in screen, no school named', await browser.get(base)],
    ['the pupil’s screen', await browser.get(`${base}/pupil/${pupilId}?org=demo-school`)],
    ['the pupil’s help code', await browser.get(`${base}/pupil/${pupilId}/help-code?org=demo-school`)],
    ['a picture tapped', await browser.post(`${base}/pupil/${pupilId}/emoji`, { csrf, org: 'demo-school', emoji: 'dog', add: 'cat' })],
    ['pictures sent', await browser.post(`${base}/pupil/${pupilId}/emoji`, { csrf, org: 'demo-school', emoji: 'dog,dog,dog,dog,dog,dog', go: '1' })],
    ['a help code sent', await browser.post(`${base}/pupil/${pupilId}/help-code`, { csrf, org: 'demo-school', code: '123456' })],
  ] as const) {
    answers.push({ what, status: res.status, text: `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${await res.text()}` });
  }
  return answers;
}

async function scenario(t: Test, redis: boolean): Promise<void> {
  const clock = new ManualClock();
  const env = redis ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'tiles') : {};
  const lanyard: Lanyard = await startLanyard(t, { clock, env });
  const { organisation, class: klass, pupils, emoji } = await tileClass(lanyard);
  const other = await lanyard.store.upsertOrganisation({ slug: 'other-school', name: 'Other School' });
  const links = classLinks(lanyard, clock);
  const hour = 3_600_000;
  const peregrine = pupils[1]!;

  const revoked = (await links.create(organisation.id, klass.id, { id: 'u', username: 'teacher' }, new Date(clock.now().getTime() + hour))).link;
  await links.revoke(organisation.id, revoked.id);
  const expiring = (await links.create(organisation.id, klass.id, { id: 'u', username: 'teacher' }, new Date(clock.now().getTime() + hour))).link;
  const otherClass = await putClass(lanyard.store, { organisationId: other.id, sourcedId: 'other-class', title: 'Other class', pupils: [['Ottoline', 'Elsewhere']], prefix: 'other.pupil' });
  const otherLink = (await links.create(other.id, otherClass.class.id, { id: 'u', username: 'teacher' }, new Date(clock.now().getTime() + 5 * hour))).link;
  const device = await classroomDevice(lanyard, clock, organisation.id, klass.id);
  const live = (await links.create(organisation.id, klass.id, { id: 'u', username: 'teacher' }, new Date(clock.now().getTime() + 5 * hour))).link;
  clock.advance(2 * hour); // `expiring` is over; `live` and the other school's are not

  const without: [string, { name: string; value: string }[]][] = [
    ['no device, no link', []],
    ['a device of the school set to no class', [await classroomDevice(lanyard, clock, organisation.id)]],
    ['a device of another school (set to this class’s id)', [await classroomDevice(lanyard, clock, other.id, klass.id)]],
    ['a class link of another school', [await classLinkCookie(lanyard, otherLink)]],
    ['another school’s link, its cookie claiming this school', [await classLinkCookie(lanyard, { organisationId: organisation.id, id: otherLink.id })]],
    ['a revoked class link', [await classLinkCookie(lanyard, revoked)]],
    ['an expired class link', [await classLinkCookie(lanyard, expiring)]],
    ['a forged class-link cookie', [{ name: 'lanyard_class', value: `${organisation.id}~${live.id}.forged` }]],
    ['a forged classroom cookie', [{ name: 'lanyard_classroom', value: `${organisation.id}~${device.id}.forged` }]],
    ['a revoked classroom device', [await (async () => {
      const gone = await classroomDevice(lanyard, clock, organisation.id, klass.id);
      const { TrustedDevices } = await import('../../src/accounts/trusted-devices.js');
      await new TrustedDevices(lanyard.store, clock).revoke(organisation.id, { id: gone.id });
      return gone;
    })()]],
  ];
  for (const [label, cookies] of without) {
    const browser = new HttpBrowser();
    for (const c of cookies) browser.cookies.set(c.name, c.value);
    for (const answer of await everyAnswer(browser, lanyard.url, peregrine.id)) {
      for (const name of [...FIRST_NAMES, ...SURNAMES]) {
        t.notOk(answer.text.includes(name), `${label}: ${answer.what} does not say ${name}`);
      }
      if (answer.what.startsWith('the pupil') || answer.what.includes('sent') || answer.what.includes('tapped')) {
        t.equal(answer.status, 404, `${label}: ${answer.what} is a 404`);
      }
    }
  }

  for (const [label, cookie] of [['a classroom device set to the class', device], ['a live class link', await classLinkCookie(lanyard, live)]] as const) {
    const browser = new HttpBrowser();
    browser.cookies.set(cookie.name, cookie.value);
    const uid = await startSignIn(browser, lanyard.url);
    const tiles = await browser.get(`${lanyard.url}/interaction/${uid}?org=demo-school`);
    const page = await tiles.text();
    t.equal(tiles.status, 200, `${label}: the tiles`);
    t.match(page, /Who are you\?/, `${label}: asks who you are`);
    t.match(tiles.headers.get('cache-control') ?? '', /no-store/, `${label}: never cached`);
    for (const shown of ['Ottoline K.', 'Ottoline M.', 'Peregrine']) t.ok(page.includes(`>${shown}<`), `${label}: a tile says ${shown}`);
    t.ok(page.indexOf('Ottoline K.') < page.indexOf('Ottoline M.') && page.indexOf('Ottoline M.') < page.indexOf('Peregrine'), `${label}: by first name`);
    t.notOk(page.includes('>Peregrine V.<'), `${label}: no surname initial where the first name is the class’s only one`);
    t.notOk(page.includes(SUSPENDED), `${label}: a suspended pupil has no tile`);
    t.notOk(page.includes('Tess'), `${label}: nor does the teacher`);
    for (const s of SURNAMES) t.notOk(page.includes(s), `${label}: no surname ${s}`);
    for (const p of pupils) t.notOk(page.includes(p.username), `${label}: no username ${p.username}`);
    t.match(page, /way=any">Sign in another way</, `${label}: the ordinary chooser is a link away`);
    const chooser = await (await browser.get(`${lanyard.url}/interaction/${uid}?org=demo-school&way=any`)).text();
    t.match(chooser, /How do you sign in\?/, `${label}: which shows the ordinary chooser`);
    t.notOk(FIRST_NAMES.some((n) => chooser.includes(n)), `${label}: with no names`);

    const keyboard = await browser.get(`${lanyard.url}/interaction/${uid}/pupil/${peregrine.id}?org=demo-school`);
    const keys = await keyboard.text();
    t.equal(keyboard.status, 200, `${label}: the tapped pupil’s keyboard`);
    t.match(keys, /Hi \u2068Peregrine\u2069! Tap your pictures/, `${label}: greets them`);
    t.notOk(keys.includes('name="username"'), `${label}: asks no username`);
    t.notOk(keys.includes(peregrine.username) || keys.includes('Vasquez'), `${label}: and shows neither username nor surname`);
    t.match(keys, /Not \u2068Peregrine\u2069\? Back to the names/, `${label}: “Not you?” goes back`);
    t.match(keys, new RegExp(`/pupil/${peregrine.id}/help-code\\?org=demo-school">I have a help code<`), `${label}: their help code`);
    const suspended = await browser.get(`${lanyard.url}/interaction/${uid}/pupil/${pupils[3]!.id}?org=demo-school`);
    t.equal(suspended.status, 404, `${label}: a suspended pupil’s screen is a 404`);
    t.notOk((await suspended.text()).includes(SUSPENDED), `${label}: naming no one`);

    const csrf = hiddenField(keys, 'csrf');
    const wrong = await browser.post(`${lanyard.url}/interaction/${uid}/pupil/${peregrine.id}/emoji`, {
      csrf, org: 'demo-school', emoji: emoji.map(() => 'dog').join(','), go: '1',
    });
    t.equal(wrong.status, 401, `${label}: wrong pictures are refused as anywhere`);
    const wrongPage = await wrong.text();
    t.equal(alertText(wrongPage), 'Those are not your pictures. Try again.', `${label}: without asking to check a username there was none to type`);
    t.match(wrongPage, /class="emoji-slots shake"/, `${label}: the slots shake`);
    const right = await browser.post(`${lanyard.url}/interaction/${uid}/pupil/${peregrine.id}/emoji`, {
      csrf, org: 'demo-school', emoji: emoji.join(','), go: '1',
    });
    t.equal(right.status, 303, `${label}: the right pictures sign in`);
    const callback = await followToCallback(browser, lanyard.url, right);
    t.ok(callback.searchParams.get('code'), `${label}: back at the app with a code`);
  }
}

t.test('class tiles are seen only with a classroom device of the class or a live class link (SQLite)', (t) => scenario(t, false));
t.test('class tiles are seen only with a classroom device of the class or a live class link (Redis)', (t) => scenario(t, true));
