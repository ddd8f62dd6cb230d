#!/usr/bin/env node
// The `lanyard` command's entry. It checks the Node version before anything else loads: an older Node
// would die inside a native module (argon2, better-sqlite3) without a word about why. ES module imports are
// evaluated before the importing module's body, so everything else is imported only after the check.
import { exitIfNodeTooOld } from './check-node.mjs';

exitIfNodeTooOld();
const { main } = await import('./cli/main.js');
await main(process.argv.slice(2));
