import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { LanyardError } from '../errors.js';

/**
 * Private keys are encrypted at rest with AES-256-GCM under the key-encryption key (KEK).
 * The kid is bound as associated data, so a record's key cannot be swapped for another's.
 * Format: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export function encryptPrivateKey(kek: Buffer, kid: string, pem: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  cipher.setAAD(Buffer.from(kid));
  const body = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function decryptPrivateKey(kek: Buffer, kid: string, sealed: string): string {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') {
    throw new LanyardError('key_unreadable', `signing key ${kid}: stored private key has an unknown format`);
  }
  try {
    const [iv, tag, body] = parts.slice(1).map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
    // A fixed 16-byte tag: without authTagLength, GCM accepts a truncated tag (down to 4 bytes), so a forger
    // would only need to match a prefix of it.
    const decipher = createDecipheriv('aes-256-gcm', kek, iv, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(kid));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new LanyardError(
      'key_unreadable',
      `signing key ${kid}: cannot decrypt the stored private key — the key-encryption key is wrong or the record was tampered with`,
    );
  }
}
