import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import jsQRModule from 'jsqr';
import type { PNG } from 'pngjs';
import { type Rect, toPixels } from '../../src/badges/label-layout.js';

/**
 * Reading a badge sheet back as a printer would print it: poppler (Debian package poppler-utils) rasterises
 * and extracts text; jsQR decodes each label's QR code.
 */
export const run = promisify(execFile);
// jsqr is CommonJS typed as an ES module: under NodeNext its default import is `module.exports`, the function.
export const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

/** The RGBA pixels of `rect` out of a decoded PNG. */
export function crop(png: PNG, rect: Rect): Uint8ClampedArray {
  const out = new Uint8ClampedArray(rect.width * rect.height * 4);
  for (let row = 0; row < rect.height; row++) {
    const from = ((rect.y + row) * png.width + rect.x) * 4;
    out.set(png.data.subarray(from, from + rect.width * 4), row * rect.width * 4);
  }
  return out;
}

/**
 * The text pdftotext finds inside one label (coordinates in points, at its default 72 dpi). `-raw`, because
 * the default mode joins a line ending in a hyphen to the next and drops the hyphen (as in hyphen-ated prose).
 */
export async function textIn(pdf: string, page: number, cell: Rect): Promise<string> {
  const box = toPixels(cell, 72);
  const args = ['-raw', '-f', `${page + 1}`, '-l', `${page + 1}`, '-x', `${box.x}`, '-y', `${box.y}`];
  const { stdout } = await run('pdftotext', [...args, '-W', `${box.width}`, '-H', `${box.height}`, pdf, '-']);
  return stdout;
}

export interface Word { text: string; xMin: number; yMin: number; xMax: number; yMax: number }

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * The words pdftotext finds on a page, each with its box in points (`-bbox`). Poppler writes a right-to-left
 * word's letters in the order they stand on the page, so compare such words both ways round.
 */
export async function wordsOnPage(pdf: string, page: number): Promise<Word[]> {
  const { stdout } = await run('pdftotext', ['-bbox', '-f', `${page + 1}`, '-l', `${page + 1}`, pdf, '-']);
  const found = stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)<\/word>/g);
  return Array.from(found, (m) => ({
    text: m[5]!.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e]!),
    xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]),
  }));
}

/**
 * The text of the words whose centre lies in `rect` (points from the page's top-left): a line per row of
 * words, top to bottom, each left to right. What `textIn` gives for the same box, from words already read.
 */
export function textOf(words: Word[], rect: Rect): string {
  const inside = words
    .filter((w) => {
      const cx = (w.xMin + w.xMax) / 2;
      const cy = (w.yMin + w.yMax) / 2;
      return cx >= rect.x && cx <= rect.x + rect.width && cy >= rect.y && cy <= rect.y + rect.height;
    })
    .sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin);
  const lines: Word[][] = [];
  for (const w of inside) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0]!.yMin - w.yMin) <= 2) line.push(w);
    else lines.push([w]);
  }
  return lines.map((l) => l.sort((a, b) => a.xMin - b.xMin).map((w) => w.text).join(' ')).join('\n');
}

/**
 * The text in boxes of a PDF's pages, each page read once (one pdftotext per page, where `textIn` runs one per
 * box: a sheet of 30 cards asks for 390 boxes).
 */
export function pdfText(pdf: string): (page: number, rect: Rect) => Promise<string> {
  const pages = new Map<number, Promise<Word[]>>();
  return async (page, rect) => {
    if (!pages.has(page)) pages.set(page, wordsOnPage(pdf, page));
    return textOf(await pages.get(page)!, rect);
  };
}

/** The words of a label's top line (its name), left to right as printed. */
export function topLine(words: Word[], cell: Rect): Word[] {
  const middle = (w: Word) => (w.yMin + w.yMax) / 2;
  const inside = words.filter((w) => {
    const x = (w.xMin + w.xMax) / 2;
    return x > cell.x && x < cell.x + cell.width && middle(w) > cell.y && middle(w) < cell.y + cell.height;
  });
  if (!inside.length) return [];
  // Words of one line share a middle within a point or two, whatever their script's height (Arabic boxes stand
  // taller than Latin ones); the next line (the school) is 10 points further down.
  const top = Math.min(...inside.map(middle));
  return inside.filter((w) => middle(w) < top + 5).sort((a, b) => a.xMin - b.xMin);
}
