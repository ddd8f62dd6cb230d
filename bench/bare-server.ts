import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchSetup } from './bench-config.js';
import { REPO } from './build.js';
import { type Group, keepTail, spawnGroup, waitReady } from './proc.js';

export interface BareServer {
  origin: string;
  group: Group;
  stop(): Promise<void>;
}

/** Starts bench/bare-provider.ts as its own process and waits for the port it prints. */
export async function startBare(setup: BenchSetup): Promise<BareServer> {
  const env = {
    ...process.env,
    BENCH_CLIENT_ID: setup.clientId,
    BENCH_CLIENT_SECRET: setup.clientSecret,
    BENCH_REDIRECT_URI: setup.redirectUri,
  };
  const group = spawnGroup('bare oidc-provider', process.execPath, ['--import', 'tsx', join(REPO, 'bench/bare-provider.ts')], {
    env, cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = keepTail(group.child.stderr);
  let printed: number | undefined;
  createInterface({ input: group.child.stdout! }).on('line', (line) => {
    const m = /^listening (\d+)$/.exec(line);
    if (m) printed = Number(m[1]);
  });
  const port = await waitReady(group, { what: 'bare oidc-provider', check: () => printed, timeoutMs: 60_000, everyMs: 10, detail: () => `\n${stderr()}` });
  // Keep draining its output (oidc-provider's development warnings), so a full pipe never blocks it.
  group.child.stdout?.resume();
  return { origin: `http://127.0.0.1:${port}`, group, stop: () => group.stop(5_000) };
}
