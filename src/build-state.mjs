import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether dist/ holds a build of the sources as they are now, and `npm start`'s build step: it runs
 * `npm run build` only when a source is newer than the built command, so a restart does not wait for tsc.
 * Plain JavaScript, like check-node.mjs, so that it runs before any build. The bench and the tests ask it
 * too (bench/build.ts, test/helpers/lanyard-command.ts).
 */

/** The project root: this file is src/build-state.mjs, or dist/src/build-state.mjs. */
const ROOT = [fileURLToPath(new URL('..', import.meta.url)), fileURLToPath(new URL('../..', import.meta.url))]
  .find((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsconfig.json')));

/**
 * What `npm run build` compiles: if any of it is newer than the mark the build writes last, the build is stale.
 * tsc writes its output even when it reports errors, so dist/src/cli.js can be newer than the sources after a
 * build that failed; the mark is written only when the whole build succeeded.
 */
const SOURCES = ['src', 'adapters', 'interactions'];
const ENTRY = 'dist/build-complete';

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|mts|mjs)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Why the build must be (re)made, or undefined when dist/ is up to date. */
export function buildNeeded(root = ROOT) {
  const entry = join(root, ENTRY);
  if (!existsSync(entry)) return 'dist/ is missing or its last build failed';
  const built = statSync(entry).mtimeMs;
  const newest = Math.max(statSync(join(root, 'tsconfig.json')).mtimeMs, ...SOURCES.map((d) => newestSource(join(root, d))));
  return newest > built ? 'sources are newer than dist/' : undefined;
}

// `node src/build-state.mjs`: build when needed (npm start's prestart).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const why = buildNeeded();
  if (why) {
    process.stderr.write(`lanyard: building (${why}): npm run build\n`);
    const res = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
    process.exit(res.status ?? 1);
  }
}
