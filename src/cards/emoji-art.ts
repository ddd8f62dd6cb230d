import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EMOJI_BANK } from '../formats/emoji-bank.js';

/**
 * The pictures of the emoji bank as artwork a PDF can hold. pdfkit cannot draw a colour emoji font, so the
 * cards draw vector artwork instead: Twemoji (jdecked/twemoji, the maintained continuation of Twitter's set:
 * flat, colourful, drawn to be told apart at small sizes), as packaged by Iconify in `@iconify-json/twemoji`
 * (one JSON file of SVG bodies on a 36 × 36 grid, updated with the upstream set). Licence: CC-BY 4.0, so every
 * page that shows them carries EMOJI_ART_CREDIT. Only the 84 pictures of the bank are kept, read from the
 * package on first use (about 50 ms) and held for the life of the process.
 */

/** The attribution CC-BY 4.0 asks for, printed on every page of emoji cards (docs/rostering.md). */
export const EMOJI_ART_CREDIT = 'Pictures: Twemoji by Twitter, Inc and other contributors, CC-BY 4.0 (creativecommons.org/licenses/by/4.0)';

interface IconSet {
  icons: Record<string, { body: string; width?: number; height?: number }>;
  aliases?: Record<string, { parent: string }>;
  width?: number;
  height?: number;
}

const PACKAGE = '@iconify-json/twemoji';
const read = (file: string): unknown => JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`${PACKAGE}/${file}`)), 'utf8'));

let art: Map<string, string> | undefined;

/** Iconify's key for an emoji: its code points in hex joined by `-`, without the emoji presentation selector. */
export const iconifyKey = (glyph: string): string =>
  [...glyph].map((c) => c.codePointAt(0)!.toString(16)).filter((hex) => hex !== 'fe0f').join('-');

function load(): Map<string, string> {
  const set = read('icons.json') as IconSet;
  const chars = read('chars.json') as Record<string, string>;
  const found = new Map<string, string>();
  for (const [name, glyph] of EMOJI_BANK) {
    const iconName = chars[iconifyKey(glyph)];
    const icon = iconName === undefined ? undefined : set.icons[iconName] ?? set.icons[set.aliases?.[iconName]?.parent ?? ''];
    if (!icon) throw new Error(`${PACKAGE} has no picture for "${name}" (${glyph}): the emoji bank and the artwork disagree`);
    const width = icon.width ?? set.width ?? 16;
    const height = icon.height ?? set.height ?? 16;
    found.set(name, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}">${icon.body}</svg>`);
  }
  return found;
}

/** The picture of an emoji-bank name, as an SVG document (a square viewBox, no size of its own). */
export function emojiSvg(name: string): string {
  art ??= load();
  const svg = art.get(name);
  if (!svg) throw new Error(`"${name}" is not in the emoji bank`);
  return svg;
}
