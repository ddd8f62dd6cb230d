#!/usr/bin/env node
// The `lanyard` command's entry. It checks the Node version before anything else loads: an older Node
// would die inside a native module (argon2, better-sqlite3) without a word about why. ES module imports are
// evaluated before the importing module's body, so everything else is imported only after the check.
import { exitIfNodeTooOld } from './check-node.mjs';

exitIfNodeTooOld();
// libuv's thread pool (RSA signatures, argon2, file I/O) is sized from this variable when first used, which
// is after this line. Sized in src/process/sizing.ts: for one process serving alone here; the workers of
// LANYARD_WORKERS get theirs from the primary. An operator's own value is kept.
if (!process.env.UV_THREADPOOL_SIZE) {
  const { threadPoolSize } = await import('./process/sizing.js');
  process.env.UV_THREADPOOL_SIZE = String(threadPoolSize(1));
  process.env.LANYARD_THREADPOOL = 'auto';
}
const { main } = await import('./cli/main.js');
await main(process.argv.slice(2));
