import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  // Written whole to a private temporary file, then linked into place: link() fails if the file exists, so
  // of two instances starting on one new data directory the second reads the first one's complete key.
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    chmodSync(tmp, 0o600);
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadKeyEncryptionKey(configured, dataDir);
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  return key;
}
