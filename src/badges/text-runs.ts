import bidiModule from 'bidi-js';
import { type LoadedFont, type Weight, fontFor, primaryFont } from './fonts.js';

/**
 * One line of a label (a name, a school) as runs of text to draw left to right, each in a font that has its
 * glyphs. Two things a PDF library does not do for us:
 * - Font fallback: a name may mix scripts ("Sara 王"), and no one font file covers them all (`fonts.ts`).
 * - Bidirectional order (Unicode Bidirectional Algorithm, UAX #9, via bidi-js): Arabic and Hebrew are stored
 *   in reading order and printed right to left, and a Latin word or a number inside them left to right.
 * Shaping (Arabic joining forms, Vietnamese stacked accents) is fontkit's, which pdfkit calls for each run;
 * fontkit also reverses a run whose script is right-to-left, so runs are handed over in reading order.
 */

export interface TextRun {
  /** Characters in reading (logical) order; fontkit reverses right-to-left scripts itself. */
  text: string;
  font: LoadedFont;
  /** Its width at a font size of 1 (shaped, kerned): labels measure a line many times while fitting it. */
  advance: number;
}

// bidi-js is CommonJS typed as an ES module: under NodeNext its default import is `module.exports`, the factory.
const bidi = (bidiModule as unknown as typeof bidiModule.default)();

/** Marks, joiners and variation selectors belong to the letter before them: same font, or no attachment. */
const ATTACHED = /^[\p{M}\u200c\u200d\ufe00-\ufe0f]$/u;
/** Bidi controls and other format characters steer the algorithm but print nothing (joiners excepted). */
const INVISIBLE = /^(?![\u200c\u200d])\p{Cf}$/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** A name as it will be printed: NFC (precomposed accents, one glyph each), one line, no control characters. */
export function cleanLine(text: string): string {
  return text.normalize('NFC').replace(/\p{Cc}/gu, ' ').replace(/\s+/gu, ' ').trim();
}

/**
 * What no bundled font can print becomes its base letter when that can be printed (a rare accented letter),
 * else `?`: a visible sign that something is missing rather than an empty box or a wrong glyph.
 */
function printableChars(text: string, weight: Weight): string {
  return [...text].map((c) => {
    if (INVISIBLE.test(c) || fontFor(c.codePointAt(0)!, weight)) return c;
    const base = c.normalize('NFD').replace(/\p{M}/gu, '');
    return base !== '' && [...base].every((b) => fontFor(b.codePointAt(0)!, weight)) ? base : '?';
  }).join('');
}

interface Run { text: string; font: LoadedFont; level: number }

/** The runs of `text` in visual order (left to right), with the paragraph direction taken from its first letter. */
export function visualRuns(line: string, weight: Weight): TextRun[] {
  const text = printableChars(cleanLine(line), weight);
  const { levels } = bidi.getEmbeddingLevels(text, 'auto');
  const runs: Run[] = [];
  let previous: LoadedFont | undefined;
  let index = 0; // in UTF-16 units, as bidi-js counts
  for (const c of text) {
    const level = levels[index]!;
    index += c.length;
    if (INVISIBLE.test(c)) continue;
    const font = chooseFont(c, previous, weight);
    previous = font;
    const last = runs.at(-1);
    if (last && last.font === font && last.level === level) last.text += c;
    else runs.push({ text: c, font, level });
  }
  return reorder(runs).flatMap(asFontkitDraws);
}

/** Letters and digits take the first face that has them; spaces, punctuation and marks stay with their neighbour. */
function chooseFont(c: string, previous: LoadedFont | undefined, weight: Weight): LoadedFont {
  const codePoint = c.codePointAt(0)!;
  const keep = previous && (ATTACHED.test(c) || !LETTER_OR_DIGIT.test(c)) && previous.font.hasGlyphForCodePoint(codePoint);
  return (keep ? previous : fontFor(codePoint, weight)) ?? primaryFont(weight);
}

/** UAX #9 rule L2: from the highest level down to the lowest odd one, reverse every sequence at that level or above. */
function reorder(runs: Run[]): Run[] {
  const out = [...runs];
  const highest = Math.max(0, ...out.map((r) => r.level));
  const lowestOdd = Math.min(...out.map((r) => r.level | 1));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; i++) {
      if (out[i]!.level < level) continue;
      let end = i;
      while (end < out.length && out[end]!.level >= level) end++;
      out.splice(i, end - i, ...out.slice(i, end).reverse());
      i = end;
    }
  }
  return out;
}

/**
 * fontkit lays a run out right to left exactly when its script is a right-to-left one. When that disagrees
 * with the run's bidi level (Arabic-Indic digits inside Arabic read left to right; a lone bracket in a
 * right-to-left name), the run is drawn one character cluster at a time, in visual order, mirrored where
 * right to left asks for it (`(` ↔ `)`).
 */
function asFontkitDraws(run: Run): TextRun[] {
  const rtl = run.level % 2 === 1;
  const shaped = shape(run.text, run.font);
  if ((shaped.direction === 'rtl') === rtl) return [{ text: run.text, font: run.font, advance: shaped.advance }];
  const clusters = Array.from(graphemes.segment(run.text), (s) => s.segment);
  if (rtl) clusters.reverse();
  return clusters.map((cluster) => {
    const text = rtl ? bidi.getMirroredCharacter(cluster) ?? cluster : cluster;
    return { text, font: run.font, advance: shape(text, run.font).advance };
  });
}

function shape(text: string, font: LoadedFont): { direction: string; advance: number } {
  const glyphs = font.font.layout(text, font.features);
  return { direction: glyphs.direction, advance: glyphs.advanceWidth / font.font.unitsPerEm };
}
