import { randomBytes } from 'node:crypto';
import { openStore, storeDataDir } from '../adapters/open-store.js';
import type { Store } from '../adapters/store.js';
import { importOrganisations } from './accounts/importer.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { KeyPairPem } from './keys/certificate.js';
import { loadKeyEncryptionKey } from './keys/key-encryption-key.js';
import { KeyManager } from './keys/key-manager.js';

export interface Services {
  store: Store;
  keyManager: KeyManager;
  cookieKeys: string[];
}

/**
 * Opens the store and everything that lives in it, ready for buildApp: configured organisations and users
 * imported, cookie keys (configured, or generated once and kept in the store so sessions survive restarts),
 * the key-encryption key, and the current month's signing key (created before the server reports ready).
 */
export async function openServices(
  config: Config,
  clock: Clock,
  generateKeyPair?: () => Promise<KeyPairPem>,
): Promise<Services> {
  const store = openStore(config.storeUrl, clock);
  try {
    await importOrganisations(store, config.file.organisations ?? [], 'startup');
    const cookieKeys = config.cookieKeys
      ?? [await store.getOrCreateSetting('cookie-key', () => randomBytes(32).toString('base64url'))];
    const keyEncryptionKey = loadKeyEncryptionKey(config.keyEncryptionKey, storeDataDir(config.storeUrl));
    const keyManager = new KeyManager({ store, clock, keyEncryptionKey, issuer: config.issuer, generateKeyPair });
    await keyManager.current();
    return { store, keyManager, cookieKeys };
  } catch (err) {
    await store.close();
    throw err;
  }
}
