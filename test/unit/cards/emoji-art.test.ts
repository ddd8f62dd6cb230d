import t from 'tap';
import { EMOJI_ART_CREDIT, emojiSvg, iconifyKey } from '../../../src/cards/emoji-art.js';
import { EMOJI_BANK } from '../../../src/formats/emoji-bank.js';

t.test('every picture of the emoji bank has its artwork, an SVG document of drawn shapes', async (t) => {
  const svgs = EMOJI_BANK.map(([name]) => emojiSvg(name));
  t.equal(svgs.length, 84);
  for (const [i, svg] of svgs.entries()) {
    t.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 36 [\d.]+">.*<\/svg>$/s, `${EMOJI_BANK[i]![0]}: an SVG on Twemoji's grid, 36 wide`);
    t.match(svg, /<(path|circle|ellipse)\b[^>]*\bfill="#[0-9a-f]{3,6}"/i, `${EMOJI_BANK[i]![0]}: coloured shapes`);
    t.notMatch(svg, /<(image|script)\b|href=/i, `${EMOJI_BANK[i]![0]}: nothing fetched or run`);
  }
  t.equal(new Set(svgs).size, svgs.length, '84 different pictures');
});

t.test('the artwork is looked up by code points, the emoji presentation selector left out', async (t) => {
  t.equal(iconifyKey('🐶'), '1f436');
  t.equal(iconifyKey('✏️'), '270f', 'U+270F U+FE0F: the selector dropped');
  t.equal(iconifyKey('🌥️'), '1f325');
});

t.test('a name outside the bank is refused; the credit names the artwork and its licence', async (t) => {
  t.throws(() => emojiSvg('dragon'), /"dragon" is not in the emoji bank/);
  t.match(EMOJI_ART_CREDIT, /Twemoji.*CC-BY 4\.0/);
});
