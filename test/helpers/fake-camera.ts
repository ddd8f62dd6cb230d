import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import QRCode from 'qrcode';

export interface QrVideoOptions {
  width?: number;
  height?: number;
  /** Identical frames in the file; Chromium loops the file. */
  frames?: number;
}

export const QR_VIDEO_DEFAULTS = { width: 640, height: 480, frames: 30 } as const;

/** Modules of white around the symbol (the QR spec's minimum quiet zone). */
const QUIET_ZONE = 4;

/**
 * The Y (luma) plane of one frame: `payload` as a QR code (error correction M), black modules on white,
 * centred, each module a whole number of pixels, as large as fits in 90% of the shorter side.
 */
export function qrLumaPlane(payload: string, width: number, height: number): Uint8Array {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  const span = modules.size + 2 * QUIET_ZONE;
  const scale = Math.floor((Math.min(width, height) * 0.9) / span);
  if (scale < 2) throw new Error(`payload too long for a ${width}x${height} frame (QR of ${modules.size} modules)`);
  const left = Math.floor((width - modules.size * scale) / 2);
  const top = Math.floor((height - modules.size * scale) / 2);
  const y = new Uint8Array(width * height).fill(235); // white (video range)
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (!modules.get(row, col)) continue;
      for (let dy = 0; dy < scale; dy += 1) {
        const start = (top + row * scale + dy) * width + left + col * scale;
        y.fill(16, start, start + scale); // black (video range)
      }
    }
  }
  return y;
}

/**
 * Writes a YUV4MPEG2 video of `payload` as a QR code, for Chromium's
 * `--use-file-for-fake-video-capture=<file>`, and returns its path (in `dir`, named after the payload).
 *
 * Chromium's reader (media/capture/video/file_video_capture_device.cc) is strict: the header must fit in
 * 200 bytes, tokens are separated by exactly one space, colour space must be 420/420jpeg/420mpeg2/420paldv
 * (I420), each frame is exactly "FRAME\n" + Y + U + V with no frame parameters, and the file must end on a
 * frame boundary (it CHECK-fails on a partial frame when it loops). The file name must end in .y4m.
 */
export function writeQrVideo(payload: string, dir: string, options: QrVideoOptions = {}): string {
  const { width, height, frames } = { ...QR_VIDEO_DEFAULTS, ...options };
  if (width % 2 || height % 2) throw new Error('4:2:0 needs an even width and height');
  const luma = qrLumaPlane(payload, width, height);
  const chroma = new Uint8Array((width / 2) * (height / 2) * 2).fill(128); // U then V: no colour

  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`, 'latin1');
  const frame = Buffer.concat([Buffer.from('FRAME\n', 'latin1'), luma, chroma]);
  const file = Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);

  const name = createHash('sha256').update(`${width}x${height}x${frames}:${payload}`).digest('hex').slice(0, 16);
  const path = join(dir, `qr-${name}.y4m`);
  writeFileSync(path, file);
  return path;
}
