import t from 'tap';
import { alertText, EMOJI_KID, HttpBrowser, openMethod, postBadge } from '../helpers/children.js';
import { writeConfig } from '../helpers/config-file.js';
import { location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';

/**
 * The pictures after a badge (badge + emoji) are the same keyboard as everywhere (interactions/emoji-sign-in.ts):
 * without JavaScript a tab shows its page and a picture keeps it; a wrong try shakes the slots and speaks only of
 * pictures (the badge said who); every word in the pupil's language.
 */

const BADGE = 'EEEE-EEEE-EEEE-EEEE-EEEE-EEEE-EE';

t.test('badge + emoji: the keyboard works without JavaScript, shows a wrong try, speaks Spanish', async (t) => {
  const config = writeConfig((c) => {
    const org = c.organisations![0]!;
    org.badge_requires_emoji = true;
    org.users!.find((u) => u.username === EMOJI_KID.username)!.badge_code = BADGE;
  });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  const spanish = { 'accept-language': 'es' };
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'badge', 'demo-school', spanish);
  const afterBadge = await postBadge(browser, lanyard.url, step, BADGE);
  t.equal(afterBadge.status, 303);
  const pictures = `${lanyard.url}/interaction/${step.uid}/badge/emoji`;
  const first = await (await browser.get(location(afterBadge, lanyard.url).href, spanish)).text();
  t.match(first, /¡Hola, \u2068Emmy\u2069! Toca tus dibujos secretos/, 'greeted in Spanish, the name isolated');
  t.notMatch(first, /Hello|Now tap/, 'no English greeting');
  t.match(first, /<link rel="stylesheet" href="\/assets\/emoji-keyboard.css">/, 'the keyboard’s own style sheet');
  const sheet = await (await fetch(`${lanyard.url}/assets/emoji-keyboard.css`)).text();
  t.match(sheet, /\[dir=rtl\] \.emoji-undo-glyph \{ transform: scaleX\(-1\); \}/, 'Delete’s ⌫ is turned round in a right-to-left page');
  const post = (fields: Record<string, string>) => browser.post(pictures, { csrf: step.csrf, org: 'demo-school', ...fields }, spanish);

  // No JavaScript: a tab posts the form, and the page asked for is the one shown.
  const tab = await post({ emoji: '', at: 'animals', page: 'food' });
  t.equal(tab.status, 200);
  const food = await tab.text();
  t.match(food, /id="emoji-page-food"[^>]*role="group"[^>]*aria-label="[^"]*">/, 'the food page is shown');
  t.notMatch(food, /id="emoji-page-food"[^>]*hidden/, 'not hidden');
  t.match(food, /id="emoji-page-animals"[^>]*hidden/, 'the animals are hidden');
  const added = await (await post({ emoji: 'dog', at: 'food', add: 'apple' })).text();
  t.match(added, /name="emoji" value="dog,apple"/, 'a picture from the food page is added');
  t.notMatch(added, /id="emoji-page-food"[^>]*hidden/, 'and the food page stays');

  // Sign in before six: the translated words.
  const early = await post({ emoji: 'dog,apple', at: 'food', go: '1' });
  t.equal(early.status, 400);
  t.equal(alertText(await early.text()), 'Toca tus 6 dibujos y luego Entrar.', 'all six, said in Spanish');

  // Wrong pictures: the slots shake, and nothing about a username.
  const wrong = await post({ emoji: 'cat,cat,cat,cat,cat,cat', go: '1' });
  t.equal(wrong.status, 401);
  const shaken = await wrong.text();
  t.match(shaken, /class="emoji-slots shake"/, 'the slots shake');
  t.match(shaken, /emoji-oops-wrong/, 'with the wrong try’s face');
  t.equal(alertText(shaken), 'Esos no son tus dibujos. Vuelve a intentarlo.', 'only the pictures are wrong');
  t.notMatch(shaken, /usuario|username/i, 'no username to check');

  const right = await post({ emoji: EMOJI_KID.emoji.join(','), go: '1' });
  t.equal(right.status, 303, 'the right pictures sign in');
});
