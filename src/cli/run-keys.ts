import { storeDataDir } from '../../adapters/open-store.js';
import { withConfiguredStore } from './configured-store.js';
import { STANDARD_OUTPUT } from './output.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { loadKeyEncryptionKey } from '../keys/key-encryption-key.js';
import { describeKeys, KeyManager } from '../keys/key-manager.js';
import { needsInit } from '../keys/store-identity.js';
import { tableLines } from './table.js';

const write = STANDARD_OUTPUT.out;

/** `lanyard keys list [--json]`: every stored key, its month, validity window and status. */
export async function listKeysCommand(config: Config, clock: Clock, json: boolean): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const keys = describeKeys(await store.listKeys(), clock.now());
    if (json) return write(JSON.stringify(keys, null, 2));
    if (!keys.length) return write('no signing keys yet (the first start creates one)');
    const rows = [['KID', 'MONTH', 'VALID FROM', 'VALID UNTIL', 'STATUS'],
      ...keys.map((k) => [k.kid, k.month, k.notBefore, k.notAfter, k.status + (k.revokedAt ? ` (replaced ${k.revokedAt})` : '')])];
    for (const l of tableLines(rows)) write(l);
  });
}

/**
 * `lanyard keys rotate --now`: the emergency exception to the monthly rule (a key is compromised).
 * A fresh key signs from now on and the replaced key leaves the key set at once; running instances pick
 * the change up from the store within seconds (src/keys/key-rotation.ts).
 */
export async function rotateNowCommand(config: Config, clock: Clock): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    // A store without its identity or keys (emptied, or never started) gets no key from here: that is `store init`'s to confirm.
    if (await needsInit(store)) {
      throw new Error('this store has no identity or no signing key (new, or emptied: docs/storage.md → The store\'s identity): '
        + 'run `lanyard store init` to start it anew, or restore it from a backup, before rotating keys');
    }
    const manager = new KeyManager({
      store,
      clock,
      keyEncryptionKey: loadKeyEncryptionKey(config.keyEncryptionKey, storeDataDir(config.storeUrl)),
      issuer: config.issuer,
    });
    const before = (await manager.publishedKids())[0];
    const fresh = await manager.rotateNow();
    write(`new signing key ${fresh.kid} (month ${fresh.month}, valid ${fresh.notBefore} to ${fresh.notAfter})`);
    if (before) write(`withdrawn from the key set: ${before}`);
    write('running Lanyard instances switch to it within 10 seconds; tokens signed with the withdrawn key no longer verify');
  });
}
