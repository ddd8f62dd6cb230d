import t from 'tap';
import { badgeCodeHash, badgeQrPayload, formatBadgeCode, generateBadgeCode, normalizeBadgeCode } from '../../../src/formats/badge-code.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

t.test('generated codes: 26 Crockford characters, at least 128 bits, never repeated', async (t) => {
  t.equal(new Set(CROCKFORD).size, 32, 'the alphabet: 32 symbols, 5 bits each');
  t.ok(26 * Math.log2(CROCKFORD.length) >= 128, '26 × 5 = 130 bits');
  const codes = Array.from({ length: 20_000 }, () => generateBadgeCode());
  t.ok(codes.every((c) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(c)), 'every code: 26 characters of the alphabet (no I, L, O, U)');
  t.equal(new Set(codes).size, codes.length, '20 000 codes, all distinct');

  // Every character uniform over the 32 symbols: 520 000 characters, 16 250 expected each (sd ≈ 126).
  const counts = new Map<string, number>();
  for (const c of codes) for (const ch of c) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  t.equal(counts.size, 32, 'all 32 symbols used');
  const expected = (codes.length * 26) / 32;
  const chi = [...CROCKFORD].reduce((s, ch) => s + ((counts.get(ch) ?? 0) - expected) ** 2 / expected, 0);
  // 31 degrees of freedom: mean 31, sd ≈ 8; 120 is ~11 sd out.
  t.ok(chi < 120, `characters uniform: chi-square ${chi.toFixed(1)} < 120`);
});

t.test('normalizeBadgeCode: forgiving about how it was typed or scanned, strict about what it is', async (t) => {
  const code = 'K7QF3MZT9XWRAB0C1DEFGHJKMN';
  t.equal(code.length, 26);
  t.equal(normalizeBadgeCode(code), code, 'the code itself');
  t.equal(normalizeBadgeCode(formatBadgeCode(code)), code, 'as printed, with dashes');
  t.equal(normalizeBadgeCode(code.toLowerCase()), code, 'lowercase');
  t.equal(normalizeBadgeCode('  k7qf 3mzt 9xwr ab0c 1def ghjk mn \n'), code, 'spaces, surrounding whitespace');
  t.equal(normalizeBadgeCode('k7qf-3mzt - 9xwr-ab0c-1def-ghjk-mn'), code, 'dashes and spaces mixed');
  t.equal(normalizeBadgeCode(badgeQrPayload(code)), code, 'the QR payload (LB1: prefix)');
  t.equal(normalizeBadgeCode(` ${badgeQrPayload(code)} `), code, 'the QR payload with whitespace around it');
  t.equal(normalizeBadgeCode('K7QF3MZT9XWRABOC1DEFGHJKMN'), code, 'letter O read as zero');
  t.equal(normalizeBadgeCode('K7QF3MZT9XWRAB0CIDEFGHJKMN'), code, 'letter I read as one');
  t.equal(normalizeBadgeCode('K7QF3MZT9XWRAB0CLDEFGHJKMN'), code, 'letter L read as one');
  t.equal(normalizeBadgeCode('k7qf3mzt9xwrab0cldefghjkmn'), code, 'lowercase l read as one');
  t.equal(normalizeBadgeCode('k7qf3mzt9xwrabocidefghjkmn'), code, 'lowercase o and i');

  t.equal(normalizeBadgeCode(code.slice(0, 25)), undefined, '25 characters refused');
  t.equal(normalizeBadgeCode(`${code}0`), undefined, '27 characters refused');
  t.equal(normalizeBadgeCode(''), undefined, 'empty refused');
  t.equal(normalizeBadgeCode(`U${code.slice(1)}`), undefined, 'U is not in the alphabet');
  t.equal(normalizeBadgeCode(`*${code.slice(1)}`), undefined, 'punctuation refused');
  t.equal(normalizeBadgeCode(`Ä${code.slice(1)}`), undefined, 'non-ASCII refused');
  t.equal(normalizeBadgeCode(`${code.slice(0, 25)}_`), undefined, 'underscore refused');
  t.equal(normalizeBadgeCode(`LB2:${code}`), undefined, 'another prefix refused');
  t.equal(normalizeBadgeCode(`https://example.com/${code}`), undefined, 'a stray QR code (URL) refused');
  t.equal(normalizeBadgeCode('LB1:'), undefined, 'the prefix alone refused');
});

t.test('formatBadgeCode: groups of four', async (t) => {
  t.equal(formatBadgeCode('K7QF3MZT9XWRAB0C1DEFGHJKMN'), 'K7QF-3MZT-9XWR-AB0C-1DEF-GHJK-MN');
  const code = generateBadgeCode();
  const formatted = formatBadgeCode(code);
  t.match(formatted, /^([0-9A-Z]{4}-){6}[0-9A-Z]{2}$/, 'six groups of four and one of two');
  t.equal(formatted.replaceAll('-', ''), code, 'nothing lost');
  t.equal(badgeQrPayload(code), `LB1:${code}`, 'the QR payload carries the bare code with its prefix');
});

t.test('badgeCodeHash: deterministic, distinct per code, never contains the code', async (t) => {
  const codes = Array.from({ length: 2000 }, () => generateBadgeCode());
  const hashes = codes.map(badgeCodeHash);
  t.same(codes.map(badgeCodeHash), hashes, 'same code, same hash');
  t.equal(new Set(hashes).size, codes.length, 'a different hash for every code');
  t.ok(hashes.every((h) => /^[A-Za-z0-9_-]{43}$/.test(h)), 'SHA-256, base64url: 43 characters');
  t.ok(codes.every((c, i) => !hashes[i]!.includes(c) && !hashes[i]!.toUpperCase().includes(c)), 'no hash contains its code');
  // The hash is of the canonical code: every way of writing one badge finds the same row.
  const code = codes[0]!;
  t.equal(badgeCodeHash(normalizeBadgeCode(formatBadgeCode(code).toLowerCase())!), badgeCodeHash(code));
  t.equal(badgeCodeHash(normalizeBadgeCode(badgeQrPayload(code))!), badgeCodeHash(code));
});
