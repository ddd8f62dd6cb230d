import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNeeded } from '../src/build-state.mjs';

export { buildNeeded };

/** The repository root (bench/ is one level down). */
export const REPO = fileURLToPath(new URL('..', import.meta.url));

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
  const emitted = existsSync(join(REPO, 'dist/src/cli.js')) && statSync(join(REPO, 'dist/src/cli.js')).mtimeMs >= t0 - 1000 && existsSync(join(REPO, 'dist/src/check-node.mjs'));
  if (!emitted) throw new Error(`npm run build failed (${res.status ?? res.signal ?? res.error})`);
  return { seconds, warning: 'npm run build reported errors (see above); the bench ran what tsc emitted' };
}
