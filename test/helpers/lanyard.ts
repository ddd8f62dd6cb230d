import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Store } from '../../adapters/store.js';
import { buildApp, type LanyardApp } from '../../src/app.js';
import { type Clock, systemClock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { KeyManager } from '../../src/keys/key-manager.js';
import { closeGracefully } from '../../src/graceful-close.js';
import { openServices } from '../../src/services.js';
import { pooledKeyPair } from './test-keys.js';

export interface Lanyard {
  app: LanyardApp;
  url: string;
  config: Config;
  store: Store;
  keyManager: KeyManager;
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
}

interface Teardown { teardown(fn: () => unknown): void }

/**
 * `count` distinct ports free on loopback right now, held together until all are picked: picked one at a
 * time, a port just freed can come back twice (the bench saw its main and metrics ports collide).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: ReturnType<typeof createServer>[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const srv = createServer();
      servers.push(srv);
      await new Promise<void>((resolve, reject) => { srv.once('error', reject); srv.listen(0, '127.0.0.1', resolve); });
    }
    return servers.map((srv) => (srv.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((srv) => new Promise<void>((resolve) => srv.close(() => resolve()))));
  }
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/**
 * A real Lanyard over real HTTP on 127.0.0.1, on a SQLite file in a temporary directory, with the demo
 * configuration unless `env` says otherwise. Torn down with the test.
 */
export async function startLanyard(t: Teardown, options: StartOptions = {}): Promise<Lanyard> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'lanyard-test-'));
  if (!options.dir) t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const port = options.port ?? (await freePort());
  const clock = options.clock ?? systemClock;
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
  const app = await buildApp({ config, clock, ...services, logStream: stream });
  await app.listen({ port, host: '127.0.0.1' });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await closeGracefully(app, 5_000);
    await services.store.close();
  };
  t.teardown(stop);
  return { app, url: config.issuer, config, store: services.store, keyManager: services.keyManager, dir, logs, stop };
}
