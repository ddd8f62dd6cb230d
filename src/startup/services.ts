import { randomBytes } from 'node:crypto';
import { openStore, storeDataDir } from '../../adapters/open-store.js';
import type { RedisPersistence } from '../../adapters/redis.js';
import type { Store } from '../../adapters/store.js';
import { hashStoredRecordIds } from '../../adapters/record-ids.js';
import { importOrganisations } from '../roster/importer.js';
import { syncConfigStaff } from '../accounts/config-staff.js';
import { AuditLog } from '../audit/audit-log.js';
import { auditSettings } from '../config/audit.js';
import { commandLogger } from '../logging.js';
import { TrustedDevices } from '../accounts/trusted-devices.js';
import { builtinClients } from '../clients/builtin-clients.js';
import { ClientRegistry } from '../clients/client-registry.js';
import { syncConfigClients } from '../clients/config-clients.js';
import { configRevision, newInstanceId, type RevisionOutcome } from '../clients/config-revision.js';
import { writeUnderRevision } from '../clients/config-revision-gate.js';
import { ConfigRevisionWatch } from '../clients/config-revision-watch.js';
import { syncConfigConnections } from '../dashboard/config-connections.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { KeyPairPem } from '../keys/rsa-key-pair.js';
import { ensureSandbox } from '../developer/sandbox.js';
import { loadKeyEncryptionKey } from '../keys/key-encryption-key.js';
import { KeyManager } from '../keys/key-manager.js';
import { establishIdentity, type StoreIdentity } from '../keys/store-identity.js';
import { Metrics } from '../metrics/metrics.js';

export interface Services {
  store: Store;
  keyManager: KeyManager;
  /** The store's identity at this start, which the running instance keeps checking (docs/storage.md → The store's identity). */
  storeIdentity: StoreIdentity;
  clients: ClientRegistry;
  cookieKeys: string[];
  /** Encrypts private keys and TOTP secrets at rest (docs/configuration.md → Environment variables). */
  keyEncryptionKey: Buffer;
  /** With a Redis store: how the server persists its data (logged at startup). */
  redisPersistence?: RedisPersistence | undefined;
  /** The process's metrics; `store` is timed into them, so every user of the store is measured. */
  metrics: Metrics;
  /** The configuration file's revision against the store's and the other instances' (docs/operations.md → Rolling configuration changes). */
  configRevision: ConfigRevisionWatch;
  /**
   * The process's audit recorder (docs/storage.md → The audit trail), which the areas record into; written in
   * batches, closed by the shutdown routine. Its failures go to standard error until buildApp gives it the app's log.
   */
  audit: AuditLog;
}

/** What the cluster primary opens (`metrics: false`): it serves no requests, and sums its workers' metrics instead. */
export type ServicesWithoutMetrics = Omit<Services, 'metrics'>;

export interface OpenOptions {
  /** false: skip writing the configuration file into the store (the workers, whose primary has done it). */
  setUp?: boolean;
  /** false: no Metrics of this process, and the store untimed (the cluster primary). */
  metrics?: boolean;
  /** false: no SQLite checkpoint thread (the workers: their primary runs the machine's one). */
  checkpointThread?: boolean;
}

/**
 * Writes the configuration file into the store, unless its revision is older than the store's
 * (src/clients/config-revision.ts; docs/operations.md → Rolling configuration changes): its organisations and
 * users — so an instance of an older file never puts back a user's old password — then its clients and the
 * organisations' app connections, which also wait while another instance runs the store's revision of the
 * same number. Makes (once) or repairs the developers' test school (docs/developer-area.md) first. Resolves
 * what became of the clients. `instance` is recorded as running the file's revision. At every start, and when
 * the cluster primary reloads the file (SIGHUP, src/cluster/reload.ts).
 */
export async function applyConfigFile(store: Store, config: Config, clock: Clock, instance: string = newInstanceId()): Promise<RevisionOutcome> {
  const sandbox = await ensureSandbox(store);
  await revokeSandboxDevices(store, clock, sandbox.organisation.id);
  const mine = configRevision(config.file);
  const stored = await store.getConfigRevision();
  // Outside the revision's lock: hashing a file's plaintext passwords (development) may take longer than it lasts.
  if (!stored || mine.version >= stored.version) await importOrganisations(store, config.file.organisations ?? [], 'startup');
  return writeUnderRevision({ store, clock, mine, instance, write: () => writeConfigApps(store, config, clock) });
}

/**
 * Classroom devices are for real schools' staff (docs/security.md → Sign-in protection): any a sandbox test
 * user marked before that rule held are revoked, so their credentials get no budget or trust of their own.
 */
async function revokeSandboxDevices(store: Store, clock: Clock, sandboxId: string): Promise<void> {
  const devices = new TrustedDevices(store, clock);
  if ((await devices.list(sandboxId)).some((d) => !d.revokedAt)) await devices.revoke(sandboxId, 'all');
}

/** The file's clients and the organisations' app connections, written into the store. */
async function writeConfigApps(store: Store, config: Config, clock: Clock): Promise<void> {
  await syncConfigClients(store, config.file.clients, clock, config.file.organisations, config.file.config_apps);
  await syncConfigConnections(store, config.file.organisations ?? [], clock);
  await syncConfigStaff(store, config.file.organisations ?? [], clock);
}

/** Setting names of the values every instance on a store shares. */
export const SHARED_SETTINGS = { cookieKey: 'cookie-key', clientAuthKey: 'client-auth-key' } as const;

const generated = () => randomBytes(32).toString('base64url');

/**
 * Opens the store and everything that lives in it, ready for buildApp: configured organisations, users and
 * clients written to it, protocol records of an earlier version stored by hash (once: adapters/record-ids.ts),
 * cookie keys (configured, or generated once and kept in the store so every instance and every restart
 * shares them), the key that derives clients' internal secrets (likewise shared), the key-encryption key,
 * and the current month's signing key (created before the server reports ready), and the watch of the file's
 * revision against the store's (started by buildApp once ready). First of all, the store's identity: found,
 * adopted, or created with a new store's first key; a store emptied under a running instance is refused
 * (StoreIdentityLostError) until an operator confirms with `lanyard store init`.
 * `setUp: false` (the worker processes of src/cluster/, whose primary has done it) skips writing the
 * configuration file into the store, and `checkpointThread: false` leaves SQLite's checkpoints to the
 * primary's thread; `metrics: false` (the cluster primary) makes no Metrics.
 */
export async function openServices(
  config: Config, clock: Clock, generateKeyPair?: () => Promise<KeyPairPem>, options?: OpenOptions & { metrics?: true },
): Promise<Services>;
export async function openServices(
  config: Config, clock: Clock, generateKeyPair: (() => Promise<KeyPairPem>) | undefined, options: OpenOptions & { metrics: false },
): Promise<ServicesWithoutMetrics>;
export async function openServices(
  config: Config,
  clock: Clock,
  generateKeyPair?: () => Promise<KeyPairPem>,
  { setUp = true, metrics: withMetrics = true, checkpointThread = true }: OpenOptions = {},
): Promise<ServicesWithoutMetrics & { metrics?: Metrics }> {
  let redisPersistence: RedisPersistence | undefined;
  const metrics = withMetrics ? new Metrics() : undefined;
  const opened = await openStore(config.storeUrl, clock, {
    redisPrefix: config.redisPrefix,
    onRedisConnect: (p) => { redisPersistence = p; },
    checkpointThread,
  });
  const store = metrics ? metrics.timeStore(opened) : opened;
  // A cluster worker reports under its primary's instance, which writes the file (src/clients/config-revision-gate.ts).
  const instance = config.instanceOf ? `${config.instanceOf}/${process.pid}` : newInstanceId();
  try {
    const keyEncryptionKey = loadKeyEncryptionKey(config.keyEncryptionKey, storeDataDir(config.storeUrl));
    const keyManager = new KeyManager({ store, clock, keyEncryptionKey, issuer: config.issuer, generateKeyPair });
    // Before anything is written: a store emptied under a running instance is refused, never taken for new.
    const { identity: storeIdentity } = await establishIdentity(store, keyManager, clock, config.storeInit);
    let outcome: RevisionOutcome | undefined;
    if (setUp) {
      outcome = await applyConfigFile(store, config, clock, instance);
      await hashStoredRecordIds(store, () => clock.now().getTime());
    }
    const cookieKeys = config.cookieKeys ?? [await store.getOrCreateSetting(SHARED_SETTINGS.cookieKey, generated)];
    const clientAuthKey = Buffer.from(await store.getOrCreateSetting(SHARED_SETTINGS.clientAuthKey, generated), 'base64url');
    await keyManager.current();
    const clients = new ClientRegistry(store, clock, clientAuthKey, builtinClients(config.issuer));
    const mine = configRevision(config.file);
    const configRevisionWatch = new ConfigRevisionWatch({
      store, mine, instance, outcome,
      adopt: () => writeUnderRevision({ store, clock, mine, instance, write: () => writeConfigApps(store, config, clock) }),
    });
    const audit = new AuditLog({ store, clock, log: commandLogger(), enabled: auditSettings(config.file).enabled });
    return {
      store, keyManager, storeIdentity, keyEncryptionKey, clients, cookieKeys, redisPersistence, configRevision: configRevisionWatch, audit,
      ...(metrics ? { metrics } : {}),
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
