import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQRModule from 'jsqr';
import t from 'tap';
import { writeQrVideo } from '../../helpers/fake-camera.js';

// jsqr is CommonJS with `exports.default`: under NodeNext its default import is the module object.
const jsQR = jsQRModule.default;

/** Splits a Y4M file the way Chromium's reader does: header line, then "FRAME\n" + I420 frames. */
function readY4m(file: Buffer) {
  const headerEnd = file.indexOf(0x0a);
  const header = file.subarray(0, headerEnd).toString('latin1');
  const tags = Object.fromEntries(header.split(' ').slice(1).map((tag) => [tag[0]!, tag.slice(1)]));
  const width = Number(tags.W);
  const height = Number(tags.H);
  const frameBytes = (width * height * 3) / 2;
  const body = file.subarray(headerEnd + 1);
  const frames: Buffer[] = [];
  for (let at = 0; at < body.length; at += 6 + frameBytes) {
    frames.push(body.subarray(at, at + 6 + frameBytes));
  }
  return { header, tags, width, height, frameBytes, frames, bodyLength: body.length };
}

/** jsQR reads RGBA: grey pixels from the luma plane. */
function decodeLuma(frame: Buffer, width: number, height: number) {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i += 1) {
    const v = frame[6 + i]!;
    rgba[i * 4] = v;
    rgba[i * 4 + 1] = v;
    rgba[i * 4 + 2] = v;
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' });
}

t.test('writeQrVideo: a Y4M file Chromium can play, whose frames decode back to the payload', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-fake-camera-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));

  const payload = 'lanyard-badge:v1:demo-school:Xq3v9TtR2mWcJ8kP0aLs5yZe1uHn7bGd';
  const path = writeQrVideo(payload, dir);
  t.match(path, /\.y4m$/, 'Chromium picks its parser by the .y4m suffix');
  const y4m = readY4m(readFileSync(path));

  t.equal(y4m.header, 'YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg', 'header Chromium parses (single spaces, I420)');
  t.ok(y4m.header.length < 200 - 6, 'header and first FRAME marker inside the 200 bytes Chromium reads');
  t.equal(y4m.frames.length, 30, '30 frames: one second at 30 fps, looped');
  t.equal(y4m.bodyLength, 30 * (6 + y4m.frameBytes), 'file ends exactly on a frame boundary');
  for (const [i, frame] of y4m.frames.entries()) {
    if (frame.subarray(0, 6).toString('latin1') !== 'FRAME\n') t.fail(`frame ${i} starts with FRAME\\n`);
  }
  t.ok(y4m.frames.every((f) => f.equals(y4m.frames[0]!)), 'all frames identical');

  const planeY = y4m.width * y4m.height;
  const chroma = y4m.frames[0]!.subarray(6 + planeY);
  t.equal(chroma.length, planeY / 2, 'U and V planes at quarter resolution');
  t.ok(chroma.every((b) => b === 128), 'U and V neutral (grey scale)');

  const decoded = decodeLuma(y4m.frames[0]!, y4m.width, y4m.height);
  t.ok(decoded, 'jsQR finds a QR code in the first frame');
  t.equal(decoded?.data, payload, 'and reads the payload back');
  const { topLeftCorner, bottomRightCorner } = decoded!.location;
  t.ok(topLeftCorner.x > 80 && bottomRightCorner.x < 560 && topLeftCorner.y > 0 && bottomRightCorner.y < 480,
    'centred, with a margin');
  t.ok(bottomRightCorner.x - topLeftCorner.x > 250, 'large: over 250 pixels across');
});

t.test('writeQrVideo: long payloads and other sizes still decode', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-fake-camera-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const payload = `https://lanyard.example/badge#${'x'.repeat(300)}`;
  const path = writeQrVideo(payload, dir, { width: 320, height: 240, frames: 2 });
  const y4m = readY4m(readFileSync(path));
  t.equal(y4m.header, 'YUV4MPEG2 W320 H240 F30:1 Ip A1:1 C420jpeg');
  t.equal(y4m.frames.length, 2);
  t.equal(decodeLuma(y4m.frames[0]!, 320, 240)?.data, payload);

  t.throws(() => writeQrVideo('x'.repeat(2000), dir, { width: 160, height: 120 }), /too long/,
    'a payload too long to draw legibly is refused, not silently blurred');
  t.throws(() => writeQrVideo('odd', dir, { width: 641, height: 480 }), /even/);
});
