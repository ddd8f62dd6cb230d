#!/usr/bin/env node
// The `lanyard` command's entry. It checks the Node version before anything else loads: an older Node
// would die inside a native module (argon2, better-sqlite3) without a word about why. ES module imports are
// evaluated before the importing module's body, so everything else is imported only after the check.
import { exitIfNodeTooOld } from './check-node.mjs';

exitIfNodeTooOld();
// libuv's thread pool (RSA signatures, argon2, file I/O) is sized from this variable when first used, which
// is after this line. One process serving alone gets a thread per core and more; the workers of
// LANYARD_WORKERS get theirs from the primary (src/cluster/sizing.ts). An operator's own value is kept.
if (!process.env.UV_THREADPOOL_SIZE) {
  const { availableParallelism } = await import('node:os');
  process.env.UV_THREADPOOL_SIZE = String(Math.max(4, availableParallelism() + 2));
  process.env.LANYARD_THREADPOOL = 'auto';
}
const { main } = await import('./cli/main.js');
await main(process.argv.slice(2));
