import { join } from 'node:path';
import type { BenchSetup } from './bench-config.js';
import { REPO } from './build.js';
import { type Group, spawnListening } from './proc.js';

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
  const { group, port } = await spawnListening('bare oidc-provider', join(REPO, 'bench/bare-provider.ts'), [], { env, cwd: REPO, timeoutMs: 60_000 });
  return { origin: `http://127.0.0.1:${port}`, group, stop: () => group.stop(5_000) };
}
