import module from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Loaded first in every test process (package.json → tap → node-arg): V8 keeps the code it compiles for each
 * module in a cache on disk, so the hundreds of processes the suite starts (test files, the servers and
 * `lanyard` commands they spawn, which inherit NODE_COMPILE_CACHE) compile Fastify, oidc-provider and
 * Lanyard once rather than each time. Measured on the unit tests: a third less CPU. The cache checks each
 * module's source, so a changed file is compiled again; it lives under node_modules/.cache/ (ignored).
 */
const dir = process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL('../../node_modules/.cache/lanyard-compile', import.meta.url));
process.env.NODE_COMPILE_CACHE = dir;
module.enableCompileCache?.(dir);
