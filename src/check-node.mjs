// The Node.js version check, in plain JavaScript so that it runs before any build and on any Node that can
// load an ES module: `npm start` and `npm test` run it first (package.json scripts), and the `lanyard`
// command (src/cli.ts) before it loads anything else. An older Node would otherwise get as far as a native
// module (argon2, better-sqlite3) and die there, on Node 20 with a segmentation fault and no word about why.
// Keep the syntax old (no `??`, no `?.`): this file must parse on the Node it is about to refuse.

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The oldest Node Lanyard runs on (oidc-provider 9's minimum; package.json "engines" says the same). */
export const REQUIRED_NODE = '22.12';
/** Where the README says how to get a newer Node. */
export const NODE_HELP = 'README.md, section "Node.js"';

function parts(version) {
  return String(version).replace(/^v/, '').split('.').map((n) => parseInt(n, 10) || 0);
}

/** Why this Node cannot run Lanyard, in one line; undefined when it can. */
export function nodeVersionProblem(version) {
  const have = parts(version);
  const need = parts(REQUIRED_NODE);
  for (let i = 0; i < need.length; i += 1) {
    if ((have[i] || 0) > need[i]) return undefined;
    if ((have[i] || 0) < need[i]) {
      return `lanyard: Node.js ${REQUIRED_NODE} or newer is required (Node 24 LTS recommended), `
        + `this is Node.js ${String(version).replace(/^v/, '')}; how to get it: ${NODE_HELP}`;
    }
  }
  return undefined;
}

/** Stops the process with the one-line message when this Node is too old. */
export function exitIfNodeTooOld(version = process.versions.node) {
  const problem = nodeVersionProblem(version);
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

// `node src/check-node.mjs` (package.json scripts): check, and exit 0 when this Node will do.
const script = process.argv[1];
let self = false;
try {
  self = Boolean(script) && realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
} catch {
  self = false;
}
if (self) exitIfNodeTooOld();
