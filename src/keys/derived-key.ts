import { hkdfSync } from 'node:crypto';

/**
 * A 32-byte key for one purpose ("help code hmac v1"), derived with HKDF-SHA-256 from the key-encryption key,
 * which every instance shares and the store does not hold: each use gets its own key, and a copy of the store
 * alone cannot recompute what it protects. Changing the purpose's words changes the key.
 */
export const derivedKey = (keyEncryptionKey: Buffer, purpose: string): Buffer =>
  Buffer.from(hkdfSync('sha256', keyEncryptionKey, Buffer.from('lanyard'), Buffer.from(purpose), 32));
