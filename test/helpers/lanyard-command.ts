import { join } from 'node:path';
import { buildNeeded } from '../../bench/build.js';
import { projectRoot } from '../../src/package-files.js';

/**
 * The node arguments that run the real `lanyard` command in tests: the built `dist/src/cli.js` when it is
 * up to date with the sources (`npm test` builds it first), else the sources through tsx, so that a test
 * run right after an edit never runs stale code. The built command starts in half the time, which adds up
 * over the few hundred commands and servers the suite starts.
 */
export const LANYARD_ARGV: readonly string[] = buildNeeded()
  ? ['--import', 'tsx', join(projectRoot, 'src/cli.ts')]
  : [join(projectRoot, 'dist/src/cli.js')];
