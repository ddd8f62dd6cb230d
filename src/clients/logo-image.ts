/**
 * What kind of image a logo is, from its first bytes (never from what the server said): PNG, JPEG, GIF or
 * WebP. Nothing else is kept: SVG is a document that can carry script and links, and any other type is not
 * something a tile shows (docs/security.md → App logos).
 */
import { ROUTES } from '../routes.js';

export interface LogoType { contentType: string; extension: string }

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffLogoType(bytes: Buffer): LogoType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG)) return { contentType: 'image/png', extension: 'png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { contentType: 'image/jpeg', extension: 'jpg' };
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return { contentType: 'image/gif', extension: 'gif' };
  if (bytes.length >= 12 && head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return { contentType: 'image/webp', extension: 'webp' };
  return undefined;
}

/** The extension of a stored logo's address, by its content type (`png` when unknown: only the four are stored). */
export const logoExtension = (contentType: string): string =>
  ({ 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' } as Record<string, string>)[contentType] ?? 'png';

/**
 * Where pages show an app's logo: Lanyard's own copy, by its hash (so the address changes with the image and
 * can be cached for good). None until Lanyard has fetched one: the logo URL itself is never shown to browsers.
 */
export const logoPath = (client: { clientId: string; logoHash?: string | undefined }): string | undefined =>
  client.logoHash ? `${ROUTES.logos}/${encodeURIComponent(client.clientId)}/${client.logoHash}` : undefined;
