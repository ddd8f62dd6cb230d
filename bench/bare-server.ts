import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchSetup } from './bench-config.js';
import { REPO } from './build.js';
import { type Group, spawnGroup } from './proc.js';

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
  let stderr = '';
  group.child.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
  const lines = createInterface({ input: group.child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bare oidc-provider did not start within 60 s\n${stderr}`)), 60_000);
    lines.on('line', (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    void group.exited.then((code) => { clearTimeout(timer); reject(new Error(`bare oidc-provider exited (${code})\n${stderr}`)); });
  }).catch(async (err: unknown) => { await group.stop(); throw err; });
  // Keep draining its output (oidc-provider's development warnings), so a full pipe never blocks it.
  group.child.stdout?.resume();
  return { origin: `http://127.0.0.1:${port}`, group, stop: () => group.stop(5_000) };
}
