import module from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Loaded first in every test process (package.json → tap → node-arg).
 *
 * - V8 keeps the code it compiles for each module in a cache on disk, so the hundreds of processes the suite
 *   starts (test files, the servers and `lanyard` commands they spawn, which inherit NODE_COMPILE_CACHE:
 *   test/helpers/child-env.ts) compile Fastify, oidc-provider and Lanyard once rather than each time. The cache
 *   checks each module's source, so a changed file is compiled again; it lives under node_modules/.cache/.
 * - `npm test` runs the tests as `npm run build` compiled them (dist/test/), built once. A test file given
 *   as TypeScript (`npx tap test/…/x.test.ts`, right after an edit) is run through tsx instead, registered
 *   here only then: its resolve hook costs every import of a compiled run a little.
 */
const dir = process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL('../../node_modules/.cache/lanyard-compile', import.meta.url));
process.env.NODE_COMPILE_CACHE = dir;
module.enableCompileCache?.(dir);

if (/\.m?ts$/.test(process.argv[1] ?? '')) await import('tsx');
