import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildNeeded } from '../../src/build-state.mjs';
import { projectRoot } from '../../src/package-files.js';

/** A project tree with one source and, when `built`, the mark of a complete build written after it. */
function tree(t: { teardown(fn: () => void): void }, o: { built: boolean }) {
  const root = mkdtempSync(join(tmpdir(), 'lanyard-build-state-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const dir of ['src', 'adapters', 'interactions', 'dist/src']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'tsconfig.json'), '{}');
  writeFileSync(join(root, 'src', 'clock.ts'), 'export {};');
  const past = new Date(Date.now() - 60_000);
  for (const f of ['tsconfig.json', 'src/clock.ts']) utimesSync(join(root, f), past, past);
  if (o.built) writeFileSync(join(root, 'dist', 'build-complete'), '');
  return root;
}

t.test('npm start builds only when dist/ is missing or older than a source', async (t) => {
  t.equal(buildNeeded(tree(t, { built: false })), 'dist/ is missing or its last build failed', 'no mark: never built, or the build failed (tsc may still have written dist/src/cli.js)');
  const root = tree(t, { built: true });
  t.equal(buildNeeded(root), undefined, 'built after every source: nothing to do');
  writeFileSync(join(root, 'adapters', 'store.ts'), 'export {};');
  // Written in the same clock tick as the mark, the two can share an mtime (the kernel's file times are
  // coarse): the edit is dated a minute on, as an edit made after a build is.
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, 'adapters', 'store.ts'), later, later);
  t.equal(buildNeeded(root), 'sources are newer than dist/', 'a source changed since the build');
});

t.test('as a script it says nothing and exits 0 when dist/ is current', async (t) => {
  if (buildNeeded(projectRoot)) execFileSync('npm', ['run', '-s', 'build'], { cwd: projectRoot, stdio: 'ignore' });
  const out = execFileSync(process.execPath, [join(projectRoot, 'src', 'build-state.mjs')], { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  t.equal(out, '', 'no build, no output');
});
