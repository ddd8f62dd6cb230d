import t from 'tap';
import type { EmojiName } from '../../src/formats/emoji-bank.js';
import { issueEmojiPassword } from '../../src/accounts/user-emoji.js';
import { ManualClock } from '../../src/clock.js';
import { classLinkCookie, classLinks, classroomDevice, tileClass } from '../helpers/class-sign-in.js';
import { demoAuthorizeUrl, HttpBrowser, openMethod, postEmoji } from '../helpers/children.js';
import { writeConfig } from '../helpers/config-file.js';
import { hiddenField, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * A tile is just a username (docs/childrens-sign-in.md → Class sign-in): wrong pictures through a pupil's tile
 * count against the same allowance as wrong pictures after their typed username, both ways; a classroom
 * device, and the pupil's own device where they signed in before, keep their own allowances, as for a typed username. New devices stop after two wrong
 * tries here (login_throttling.new_device_failure_cap).
 */

const CAP = 2;
const WRONG = ['dog', 'dog', 'dog', 'dog', 'dog', 'cat'];

t.test('tile sign-ins and typed usernames share one guessing allowance; a classroom device keeps its own', async (t) => {
  const clock = new ManualClock();
  const config = writeConfig((c) => { c.login_throttling = { ...c.login_throttling, new_device_failure_cap: CAP }; });
  const lanyard = await startLanyard(t, { clock, env: { LANYARD_CONFIG: config } });
  const { organisation, class: klass, pupils, emoji } = await tileClass(lanyard);
  const links = classLinks(lanyard, clock);
  const { link } = await links.create(organisation.id, klass.id, { id: 'u', username: 'teacher' }, new Date(clock.now().getTime() + 24 * 3_600_000));
  const linkCookie = await classLinkCookie(lanyard, link);
  const device = await classroomDevice(lanyard, clock, organisation.id, klass.id);
  const [ottoline, peregrine] = [pupils[0]!, pupils[1]!];
  const { names: ottolineEmoji } = await issueEmojiPassword(lanyard.store, ottoline);

  /**
   * The answer's status, or `stopped` where the allowance has run out (not a wait: the clock moves an hour after
   * every try, past any wait between tries).
   */
  const answer = async (res: Response): Promise<number | 'stopped'> => {
    const page = await res.text();
    clock.advance(3_600_000);
    return res.status === 429 && page.includes('Signing in here is paused') ? 'stopped' : res.status;
  };
  /** A browser (by default a fresh one: a new device) holding `cookie`, its pictures for the tapped pupil sent: the answer's status. */
  const tileTry = async (cookie: { name: string; value: string }, pupilId: string, pictures: readonly string[], browser = new HttpBrowser()) => {
    browser.cookies.set(cookie.name, cookie.value);
    const uid = location(await browser.get(demoAuthorizeUrl(lanyard.url)), lanyard.url).pathname.split('/')[2]!;
    const keyboard = await browser.get(`${lanyard.url}/interaction/${uid}/pupil/${pupilId}?org=demo-school`);
    const csrf = hiddenField(await keyboard.text(), 'csrf');
    return answer(await browser.post(`${lanyard.url}/interaction/${uid}/pupil/${pupilId}/emoji`, { csrf, org: 'demo-school', emoji: pictures.join(','), go: '1' }));
  };
  const typedTry = async (username: string, pictures: readonly string[]) => {
    const browser = new HttpBrowser();
    return answer(await postEmoji(browser, lanyard.url, await openMethod(browser, lanyard.url, 'emoji'), username, [...pictures]));
  };

  // Peregrine's own laptop: signed in there once (through the tile), it is a device known for him.
  const laptop = new HttpBrowser();
  t.equal(await tileTry(linkCookie, peregrine.id, emoji, laptop), 303, 'Peregrine signs in on his laptop through his tile');

  // Through the tile, from new devices: the allowance runs out, and the typed username is stopped too.
  const tiles = [];
  for (let i = 0; i < CAP; i++) tiles.push(await tileTry(linkCookie, peregrine.id, WRONG));
  t.same(tiles, [401, 'stopped'], 'wrong pictures through Peregrine’s tile, from new devices: refused, then stopped at the cap');
  t.equal(await tileTry(linkCookie, peregrine.id, emoji), 'stopped', 'then even the right ones through the tile are stopped');
  t.equal(await typedTry(peregrine.username, emoji as EmojiName[]), 'stopped', 'and after the typed username');
  t.equal(await tileTry(device, peregrine.id, emoji), 303, 'the classroom device keeps its own allowance: the tile signs in');
  t.equal(await tileTry(linkCookie, peregrine.id, emoji, laptop), 303, 'and so does his own laptop, a device known for him');

  // Typed from new devices: the tile is stopped the same way.
  const typed = [];
  for (let i = 0; i < CAP; i++) typed.push(await typedTry(ottoline.username, WRONG));
  t.same(typed, tiles, 'wrong pictures after Ottoline’s typed username, from new devices: answered as through a tile');
  t.equal(await tileTry(linkCookie, ottoline.id, ottolineEmoji), 'stopped', 'then her tile from a new device is stopped');
  t.equal(await tileTry(device, ottoline.id, ottolineEmoji), 303, 'and the classroom device’s tile still signs her in');
});
