import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../../src/package-files.js';
import { freePort, type Teardown } from './redis-server.js';
import { LANYARD_ARGV } from './lanyard-command.js';
import { compileCacheEnv } from './child-env.js';

/** `lanyard serve` with worker processes (LANYARD_WORKERS), as a child process with JSON logs. */
export interface ServedWorkers {
  url: string;
  child: ChildProcess;
  /** The workers' pids, from the primary's ready line. */
  workers: number[];
  /** Every JSON log line so far, parsed. */
  lines(): Record<string, unknown>[];
  output(): string;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

export const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(safeRead(`/proc/${pid}/status`));
const safeRead = (path: string) => { try { return readFileSync(path, 'utf8'); } catch { return ''; } };

/** Waits (bounded) until `check` holds. */
export async function until(check: () => boolean, what: string, withinMs = 20_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(50);
  }
}

export function spawnServe(t: Teardown, env: Record<string, string>): { child: ChildProcess; output: () => string; exited: ServedWorkers['exited'] } {
  const child = spawn(process.execPath, [...LANYARD_ARGV, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...compileCacheEnv(), HOST: '127.0.0.1', LANYARD_DEMO_APP: 'off', LANYARD_LOG_FORMAT: 'json', ...env },
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += String(d); });
  child.stderr!.on('data', (d) => { out += String(d); });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000, undefined, { ref: false })]); // unref'd: a stopped child lets the test end at once
    }
  });
  return { child, output: () => out, exited };
}

/** Starts `lanyard serve` with `workers` processes on a fresh SQLite file (or `env`'s store); waits until ready. */
export async function serveWorkers(t: Teardown, workers: number, env: Record<string, string> = {}): Promise<ServedWorkers> {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-workers-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  // The issuer is the address the tests ask (the pages answer only under its name: src/web/issuer-host.ts).
  const served = spawnServe(t, {
    LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}`, PORT: String(port), LANYARD_ISSUER: `http://127.0.0.1:${port}`, LANYARD_WORKERS: String(workers), ...env,
  });
  const lines = () => served.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  await until(() => lines().some((l) => l.event === 'ready') || served.child.exitCode !== null, 'ready', 60_000);
  const ready = lines().find((l) => l.event === 'ready');
  if (!ready) throw new Error(`lanyard serve stopped:\n${served.output()}`);
  return { url: `http://127.0.0.1:${port}`, child: served.child, workers: ready.pids as number[], lines, output: served.output, exited: served.exited };
}
