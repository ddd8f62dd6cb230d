import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/ is one level down). */
export const REPO = fileURLToPath(new URL('..', import.meta.url));

/** What `npm run build` compiles: if any of it is newer than dist/src/cli.js, the build is stale. */
const SOURCES = ['src', 'adapters', 'interactions'];
const ENTRY = join(REPO, 'dist/src/cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|mts|mjs)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Why the build must be (re)made, or undefined when dist is up to date. */
export function buildNeeded(): string | undefined {
  if (!existsSync(ENTRY)) return 'dist/ is missing';
  const built = statSync(ENTRY).mtimeMs;
  const newest = Math.max(statSync(join(REPO, 'tsconfig.json')).mtimeMs, ...SOURCES.map((d) => newestSource(join(REPO, d))));
  return newest > built ? 'sources are newer than dist/' : undefined;
}

/**
 * Runs `npm run build` when needed (its output to stderr, so stdout stays the report). tsc emits even when it
 * reports type errors (a test file in the middle of a change, say): then the bench goes on with what was
 * emitted, and says so in `warning`. Returns the seconds spent.
 */
export function ensureBuilt(log: (line: string) => void): { seconds: number; warning?: string } {
  const why = buildNeeded();
  if (!why) return { seconds: 0 };
  log(`building Lanyard (${why}): npm run build`);
  const t0 = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const res = spawnSync(npm, ['run', '-s', 'build'], { cwd: REPO, stdio: ['ignore', 2, 2] });
  const seconds = (Date.now() - t0) / 1000;
  if (res.status === 0) return { seconds };
  const emitted = existsSync(ENTRY) && statSync(ENTRY).mtimeMs >= t0 - 1000 && existsSync(join(REPO, 'dist/src/check-node.mjs'));
  if (!emitted) throw new Error(`npm run build failed (${res.status ?? res.signal ?? res.error})`);
  return { seconds, warning: 'npm run build reported errors (see above); the bench ran what tsc emitted' };
}
