import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';

/**
 * The fonts badge sheets are printed with: the Noto family, which is made to cover every script, shipped as
 * npm packages (OFL-1.1) so that the Docker image and every checkout carry them — no system fonts, no
 * download at run time. Each face covers some scripts; a character is printed with the first face, in the
 * order below, that has a glyph for it (`text-runs.ts` decides). Faces are read and parsed on first use and
 * kept for the life of the process: a sheet of Latin names never reads the 8 MB Chinese font.
 */

export type Weight = 'regular' | 'bold';

interface Face {
  /** The npm package that ships the font files (in its `fonts/` folder). */
  pkg: string;
  files: Readonly<Record<Weight, string>>;
  /** OpenType features to switch off (fontkit applies each script's defaults). */
  off?: readonly string[];
}

const FACES: readonly Face[] = [
  // Latin (with Vietnamese and the rest of Latin Extended), Greek, Cyrillic, Devanagari, IPA.
  // Its `ccmp` splits ẹ ị ọ ụ ṣ … into a letter and a dot below. A PDF maps each glyph to one text, so the
  // plain letter's glyph would then read back as ị everywhere in the sheet (and fontkit keeps the first mapping
  // it saw for the life of the font). Names are NFC, whose precomposed letters the font draws directly.
  { pkg: '@embedpdf/fonts-latin', files: { regular: 'NotoSans-Regular.ttf', bold: 'NotoSans-Bold.ttf' }, off: ['ccmp'] },
  // Arabic script: Arabic, Persian, Urdu, … (joined letter forms come from the font's GSUB, shaped by fontkit).
  { pkg: '@embedpdf/fonts-arabic', files: { regular: 'NotoNaskhArabic-Regular.ttf', bold: 'NotoNaskhArabic-Bold.ttf' } },
  { pkg: '@embedpdf/fonts-hebrew', files: { regular: 'NotoSansHebrew-Regular.ttf', bold: 'NotoSansHebrew-Bold.ttf' } },
  // Chinese (about 21,000 Han characters) and Japanese kana: about 8 MB a weight, so last, read only when needed.
  { pkg: '@embedpdf/fonts-sc', files: { regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' } },
];

/** A parsed font, the name a PDF document registers it under, and the features every layout must pass. */
export interface LoadedFont {
  key: string;
  font: fontkit.Font;
  features: Record<string, boolean>;
}

const loaded = new Map<string, LoadedFont>();

/** The font files of a package: its entry point is `dist/index.js`, the fonts sit beside `dist/`. */
function fontPath(face: Face, weight: Weight): string {
  return fileURLToPath(new URL(`../fonts/${face.files[weight]}`, import.meta.resolve(face.pkg)));
}

function load(face: Face, weight: Weight): LoadedFont {
  const key = face.files[weight];
  let font = loaded.get(key);
  if (!font) {
    const parsed = fontkit.create(readFileSync(fontPath(face, weight)));
    if (!('hasGlyphForCodePoint' in parsed)) throw new Error(`${key} is a font collection, not a font`);
    font = { key, font: parsed, features: Object.fromEntries((face.off ?? []).map((tag) => [tag, false])) };
    loaded.set(key, font);
  }
  return font;
}

/** The face every line starts in, and whose glyphs spaces and punctuation prefer. */
export const primaryFont = (weight: Weight): LoadedFont => load(FACES[0]!, weight);

/** The font files read so far in this process (by file name). */
export const loadedFonts = (): string[] => [...loaded.keys()];

/** The first face that can print `codePoint`, or undefined when none can. */
export function fontFor(codePoint: number, weight: Weight): LoadedFont | undefined {
  for (const face of FACES) {
    const font = load(face, weight);
    if (font.font.hasGlyphForCodePoint(codePoint)) return font;
  }
  return undefined;
}
