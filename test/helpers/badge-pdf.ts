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
