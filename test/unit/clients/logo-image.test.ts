import t from 'tap';
import { logoExtension, sniffLogoType } from '../../../src/clients/logo-image.js';

t.test('the bytes say what an image is: PNG, JPEG, GIF, WebP; SVG, HTML and the rest are none of them', async (t) => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  t.equal(sniffLogoType(png)?.contentType, 'image/png');
  t.equal(sniffLogoType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))?.contentType, 'image/jpeg');
  t.equal(sniffLogoType(Buffer.from('GIF89a....'))?.contentType, 'image/gif');
  t.equal(sniffLogoType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))?.contentType, 'image/webp');
  for (const other of ['<svg xmlns="http://www.w3.org/2000/svg"/>', '<?xml version="1.0"?><svg/>', '<!doctype html>', '', 'RIFF....WAVE', '\x89PNG']) {
    t.equal(sniffLogoType(Buffer.from(other, 'latin1')), undefined, JSON.stringify(other));
  }
  t.same(['image/png', 'image/jpeg', 'image/gif', 'image/webp'].map(logoExtension), ['png', 'jpg', 'gif', 'webp']);
});
