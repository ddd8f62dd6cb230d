import t from 'tap';
import {
  canonicalEmojiPassword,
  describeEmojiPassword,
  EMOJI_BANK,
  EMOJI_PASSWORD_LENGTH,
  emojiGlyph,
  generateEmojiPassword,
  parseEmojiPassword,
} from '../../../src/formats/emoji-bank.js';

const NAMES: string[] = EMOJI_BANK.map(([name]) => name);
const GLYPHS: string[] = EMOJI_BANK.map(([, glyph]) => glyph);
// A constructor, not a literal: the compiler targets ES2023 and knows the v flag (Node has it) from ES2024 only.
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');

/**
 * Pearson's chi-square statistic of observed counts against a uniform expectation. With 83 degrees of
 * freedom its mean is 83 and its standard deviation about 13: the bounds below (200) are ~9 standard
 * deviations out (p < 1e-11 for a fair generator), yet a modulo-biased or position-dependent draw lands
 * far beyond them at these sample sizes.
 */
function chiSquare(counts: Map<string, number>, total: number): number {
  const expected = total / EMOJI_BANK.length;
  return NAMES.reduce((sum, name) => sum + ((counts.get(name) ?? 0) - expected) ** 2 / expected, 0);
}

t.test('the bank: 84 distinct names and 84 distinct pictures, each a single emoji', async (t) => {
  t.equal(EMOJI_BANK.length, 84, '84 symbols');
  t.equal(new Set(NAMES).size, 84, 'names all distinct');
  t.equal(new Set(GLYPHS).size, 84, 'glyphs all distinct');
  const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
  const bad: string[] = [];
  for (const [name, glyph] of EMOJI_BANK) {
    const clusters = [...graphemes.segment(glyph)].length;
    // RGI_Emoji: a fully-qualified emoji as Unicode recommends for general interchange (so '✈' without
    // its emoji variation selector, drawn as a black-and-white text symbol, would not pass).
    if (clusters !== 1 || !RGI_EMOJI.test(glyph) || /[\x00-\x7f]/.test(glyph)) bad.push(`${name} ${glyph}`);
    // Names are joined with commas into the hashed form and read aloud: plain lowercase words.
    if (!/^[a-z]+( [a-z]+)?$/.test(name)) bad.push(`name "${name}"`);
  }
  t.same(bad, [], 'every glyph is one visible emoji (no ASCII), every name plain lowercase words');
  for (const [name, glyph] of EMOJI_BANK) t.equal(emojiGlyph(name), glyph, `${name} → ${glyph}`);
  t.equal(emojiGlyph('dragon'), undefined, 'no glyph for a name outside the bank');
});

t.test('entropy: 6 symbols of 84, at least 38 bits', async (t) => {
  t.equal(EMOJI_PASSWORD_LENGTH, 6);
  const bits = EMOJI_PASSWORD_LENGTH * Math.log2(EMOJI_BANK.length);
  t.ok(bits >= 38, `6 × log2(84) = ${bits.toFixed(2)} bits`);
});

t.test('generateEmojiPassword: 6 names from the bank, repeats possible, uniform draws', async (t) => {
  const passwords = Array.from({ length: 14_000 }, () => generateEmojiPassword()); // 84 × 1000 symbols
  t.ok(passwords.every((p) => p.length === 6), 'always 6 symbols');
  t.ok(passwords.every((p) => p.every((n) => NAMES.includes(n))), 'always names from the bank');
  // P(a password repeats a symbol) ≈ 17%: among 14 000 some must.
  const withRepeat = passwords.filter((p) => new Set(p).size < p.length).length;
  t.ok(withRepeat > 1000 && withRepeat < 4000, `repeats are allowed and happen at the expected rate (${withRepeat} of 14000)`);
  t.ok(passwords.every((p) => canonicalEmojiPassword(p) !== undefined), 'every generated password is accepted');

  const all = new Map<string, number>();
  const byPosition = Array.from({ length: 6 }, () => new Map<string, number>());
  for (const p of passwords) {
    p.forEach((n, i) => {
      all.set(n, (all.get(n) ?? 0) + 1);
      byPosition[i]!.set(n, (byPosition[i]!.get(n) ?? 0) + 1);
    });
  }
  t.equal(all.size, 84, 'every symbol drawn');
  const total = passwords.length * 6;
  const counts = NAMES.map((n) => all.get(n) ?? 0);
  // Each count is Binomial(84000, 1/84): mean 1000, sd ≈ 31; ±250 is 8 sd.
  t.ok(counts.every((c) => c > 750 && c < 1250), `each symbol drawn 1000 ± 250 times (min ${Math.min(...counts)}, max ${Math.max(...counts)})`);
  const chi = chiSquare(all, total);
  t.ok(chi < 200, `chi-square over all draws ${chi.toFixed(1)} < 200 (83 degrees of freedom)`);
  for (const [i, m] of byPosition.entries()) {
    const c = chiSquare(m, passwords.length);
    t.ok(c < 200, `position ${i + 1}: chi-square ${c.toFixed(1)} < 200`);
  }
});

t.test('canonicalEmojiPassword: exactly six names from the bank', async (t) => {
  t.equal(canonicalEmojiPassword(['dog', 'apple', 'rocket', 'star', 'cat', 'pizza']), 'dog,apple,rocket,star,cat,pizza');
  t.equal(canonicalEmojiPassword(['ice cream', 'top hat', 'teddy bear', 'dog', 'dog', 'dog']), 'ice cream,top hat,teddy bear,dog,dog,dog',
    'names with spaces, and repeats');
  t.equal(canonicalEmojiPassword(['dog', 'apple', 'rocket', 'star', 'cat']), undefined, '5 names refused');
  t.equal(canonicalEmojiPassword(['dog', 'apple', 'rocket', 'star', 'cat', 'pizza', 'dog']), undefined, '7 names refused');
  t.equal(canonicalEmojiPassword([]), undefined, 'nothing refused');
  t.equal(canonicalEmojiPassword(['dog', 'apple', 'rocket', 'star', 'cat', 'dragon']), undefined, 'an unknown name refused');
  t.equal(canonicalEmojiPassword(['dog', 'apple', 'rocket', 'star', 'cat', 'Pizza']), undefined, 'names are exact (case)');
  t.equal(canonicalEmojiPassword(['🐶', '🍎', '🚀', '⭐', '🐱', '🍕']), undefined, 'glyphs are not names');
  t.equal(canonicalEmojiPassword(['dog,apple', 'rocket', 'star', 'cat', 'pizza', 'dog']), undefined, 'no comma smuggling');
});

t.test('parseEmojiPassword and describeEmojiPassword', async (t) => {
  t.same(parseEmojiPassword('dog,apple,rocket,star,cat,pizza'), ['dog', 'apple', 'rocket', 'star', 'cat', 'pizza']);
  t.same(parseEmojiPassword(' dog , ice cream,, top hat ,'), ['dog', 'ice cream', 'top hat'], 'trimmed, empty entries dropped');
  t.same(parseEmojiPassword(''), []);
  const names = ['dog', 'ice cream', 'top hat', 'star', 'cat', 'pizza'];
  t.equal(canonicalEmojiPassword(parseEmojiPassword(names.join(', '))), names.join(','), 'parse then canonical round-trips');
  t.equal(describeEmojiPassword(['dog', 'ice cream']), '🐶 dog  🍦 ice cream');
});
