import { storeDataDir } from '../../adapters/open-store.js';
import { hashStoredRecordIds } from '../../adapters/record-ids.js';
import { applyConfigFile } from '../startup/services.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { loadKeyEncryptionKey } from '../keys/key-encryption-key.js';
import { KeyManager } from '../keys/key-manager.js';
import { initIdentity, needsInit, readIdentity, readLoss } from '../keys/store-identity.js';
import { withConfiguredStore } from './configured-store.js';
import { STANDARD_OUTPUT } from './output.js';

const write = STANDARD_OUTPUT.out;

/**
 * `lanyard store init`: the operator's confirmation that a store emptied under Lanyard starts anew
 * (docs/operations.md → When the store was emptied). Does nothing to a store whose identity and keys are
 * intact. Otherwise makes the month's signing key (keeps the one there is), writes a new identity, clears
 * the loss a running instance recorded and writes the configuration file into the store as a start does;
 * running instances take it at their next check.
 */
export async function initStoreCommand(config: Config, clock: Clock): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    if (!(await needsInit(store))) {
      const identity = (await readIdentity(store))!;
      write(`the store already has its identity ${identity.id} (created ${identity.createdAt}) and its signing keys: nothing to do`);
      return;
    }
    const before = await readIdentity(store);
    const loss = await readLoss(store);
    if (loss) write(`recorded loss (${loss.cause}, found ${loss.detectedAt}): ${loss.message}`);
    else if (before) write(`the store has its identity ${before.id} but no signing key`);
    else write('the store has no identity yet');
    const manager = new KeyManager({
      store, clock, issuer: config.issuer, keyEncryptionKey: loadKeyEncryptionKey(config.keyEncryptionKey, storeDataDir(config.storeUrl)),
    });
    const identity = await initIdentity(store, manager, clock);
    // As at a start (src/startup/services.ts): the running instances serve the file's schools and apps at once.
    await applyConfigFile(store, config, clock);
    await hashStoredRecordIds(store, () => clock.now().getTime());
    write(`store started anew: identity ${identity.id}, signing key ${identity.firstKid}; the configuration file written into it (${config.configPath})`);
    write('running Lanyard instances take it at their next check (within 10 seconds) and answer ready again; tokens signed before the store was emptied do not verify');
  });
}
