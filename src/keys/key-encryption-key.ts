import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LanyardError } from '../errors.js';

export const KEK_FILE = 'key-encryption-key';

/**
 * The key-encryption key: from configuration (LANYARD_KEY_ENCRYPTION_KEY), else kept in the data
 * directory, generated on first start with owner-only permissions. Without either (in-memory store)
 * it lives for the process only.
 */
export function loadKeyEncryptionKey(configured: Buffer | undefined, dataDir: string | undefined): Buffer {
  if (configured) return configured;
  if (!dataDir) return randomBytes(32);
  const path = join(dataDir, KEK_FILE);
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new LanyardError('config_invalid', `${path}: must hold 32 bytes, base64-encoded`);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(path, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return key;
}
