import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Store } from '../../adapters/store.js';
import { buildApp, type LanyardApp } from '../../src/app.js';
import { type Clock, systemClock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import type { ConfigRevisionWatch } from '../../src/clients/config-revision-watch.js';
import type { KeyManager } from '../../src/keys/key-manager.js';
import { closeGracefully } from '../../src/http/graceful-close.js';
import type { LogoFetcher } from '../../src/clients/logo-fetcher.js';
import type { AuditLog } from '../../src/audit/audit-log.js';
import { openServices } from '../../src/startup/services.js';
import { freePort, freePorts } from './ports.js';
import { pooledKeyPair } from './test-keys.js';

export interface Lanyard {
  app: LanyardApp;
  url: string;
  config: Config;
  store: Store;
  keyManager: KeyManager;
  /** The watch of the configuration revisions (its `tick()` is what its timer runs). */
  configRevision: ConfigRevisionWatch;
  /** The audit recorder (`flush()` writes what waits, for a test to read the trail). */
  audit: AuditLog;
  dir: string;
  /** Every log line written so far, raw JSON text. */
  logs: string[];
  /** Stops the server and closes the store (keeps the data directory). */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Data directory to reuse (restart tests); a fresh temporary one by default. */
  dir?: string;
  port?: number;
  clock?: Clock;
  env?: Record<string, string>;
  /** How apps' logos are fetched (default: production's, public hosts only). */
  logoFetcher?: LogoFetcher;
}

interface Teardown { teardown(fn: () => unknown): void }

export { freePort, freePorts };

/**
 * A real Lanyard over real HTTP on 127.0.0.1, on a SQLite file in a temporary directory, with the demo
 * configuration unless `env` says otherwise. Torn down with the test.
 */
export async function startLanyard(t: Teardown, options: StartOptions = {}): Promise<Lanyard> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'lanyard-test-'));
  if (!options.dir) t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clock = options.clock ?? systemClock;
  // A port found free can be taken by another test file before Lanyard listens on it (EADDRINUSE seen in CI):
  // then the whole server is built again on another one (the issuer names the port), at most three times.
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? (await freePort());
    const config = loadConfig({
      PORT: String(port),
      LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}`,
      LANYARD_LOG_LEVEL: 'info',
      ...options.env,
    });
    const services = await openServices(config, clock, pooledKeyPair);
    const logs: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) { logs.push(String(chunk)); cb(); },
    });
    const app = await buildApp({ config, clock, ...services, logStream: stream, ...(options.logoFetcher ? { logoFetcher: options.logoFetcher } : {}) });
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (err) {
      await app.close();
      await services.audit.close();
      await services.store.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.port !== undefined || attempt === 3) throw err;
      continue;
    }
    return running(t, { app, config, services, dir, logs });
  }
}

function running(t: Teardown, o: { app: LanyardApp; config: Config; services: Awaited<ReturnType<typeof openServices>>; dir: string; logs: string[] }): Lanyard {
  const { app, config, services, dir, logs } = o;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await closeGracefully(app, 5_000);
    await services.audit.close();
    await services.store.close();
  };
  t.teardown(stop);
  return { app, url: config.issuer, config, store: services.store, keyManager: services.keyManager, configRevision: services.configRevision, audit: services.audit, dir, logs, stop };
}
