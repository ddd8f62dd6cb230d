import t from 'tap';
import { readEmojiInput, tapAll } from '../../../interactions/emoji-input.js';
import { EMOJI_PAGES, pageOf } from '../../../interactions/emoji-pages.js';
import { EMOJI_BANK } from '../../../src/formats/emoji-bank.js';
import { translator } from '../../../src/web/i18n/translator.js';

t.test('the pages are the bank, cut where its kinds change: each picture on exactly one, in order', async (t) => {
  t.same(EMOJI_PAGES.flatMap((p) => EMOJI_BANK.slice(p.from, p.to).map(([n]) => n)), EMOJI_BANK.map(([n]) => n));
  t.equal(pageOf('dog'), 'animals');
  t.equal(pageOf('crab'), 'animals');
  t.equal(pageOf('apple'), 'food');
  t.equal(pageOf('sun'), 'nature');
  t.equal(pageOf('teddy bear'), 'things');
  t.equal(pageOf('dragon'), undefined, 'a name not in the bank is on no page');
});

t.test('a post of the keyboard: a picture, Delete, a tab or Sign in, and the page to show next', async (t) => {
  t.same(readEmojiInput({ emoji: 'dog', add: 'pizza', at: 'animals' }), { chosen: ['dog', 'pizza'], action: 'add', page: 'food' },
    'a picture added: its page is shown');
  t.same(readEmojiInput({ emoji: 'dog,cat', del: '1', at: 'things' }), { chosen: ['dog'], action: 'del', page: 'things' },
    'Delete: the page it was on');
  t.same(readEmojiInput({ emoji: 'dog', page: 'nature', at: 'animals' }), { chosen: ['dog'], action: 'page', page: 'nature' },
    'a tab: its page, the pictures kept');
  t.same(readEmojiInput({ emoji: 'dog', page: 'secret', at: 'things' }), { chosen: ['dog'], action: 'page', page: 'things' },
    'an unknown tab: the page it was on');
  t.same(readEmojiInput({ emoji: 'dog,dragon', go: '1', at: 'nowhere' }), { chosen: ['dog'], action: 'go', page: 'animals' },
    'Sign in: names not in the bank dropped, an unknown page the first');
  t.same(readEmojiInput({ emoji: 'a,b,c,d,e,f,g'.split(',').map(() => 'cat').join(','), add: 'dog' }).chosen, Array(6).fill('cat'),
    'never more than six');
});

t.test('"tap all six" in each language', async (t) => {
  t.equal(tapAll(translator('en')), 'Tap all 6 of your pictures, then Sign in.');
  for (const locale of ['es', 'fr', 'ar'] as const) t.match(tapAll(translator(locale)), /6|٦/, `${locale}: says six`);
});
