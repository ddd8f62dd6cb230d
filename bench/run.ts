/**
 * `npm run bench`: Lanyard's rates beside the machine's limits and beside bare oidc-provider, measured in
 * one run on this machine (docs/performance.md). Progress goes to standard error, the table to standard output, the
 * same as JSON to bench/results/latest.json (or --json FILE). See bench/README.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { benchmark } from './benchmark.js';
import { type Options, parseOptions, USAGE } from './options.js';
import { killAllGroupsNow, leftovers, stopAllGroups } from './proc.js';
import { renderReport } from './report.js';
import type { Results } from './results.js';

const began = Date.now();
const log = (line: string) => process.stderr.write(`[bench ${((Date.now() - began) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);

let tempDir: string | undefined;
let keepTemp = false;
const removeTemp = () => {
  if (!tempDir) return;
  if (keepTemp) log(`kept ${tempDir}`);
  else rmSync(tempDir, { recursive: true, force: true });
};

/** Ctrl-C or a kill: stop everything the bench started (process groups), then leave. */
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping every process the bench started`);
    void stopAllGroups(3_000).finally(() => { removeTemp(); process.exit(130); });
  });
}
// Whatever else ends the process: nothing it started may outlive it.
process.on('exit', killAllGroupsNow);

async function cli(): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  if (options === 'help') { process.stdout.write(`${USAGE}\n`); return 0; }
  tempDir = mkdtempSync(join(tmpdir(), 'lanyard-bench-'));
  keepTemp = options.keep;
  let results: Results | undefined;
  let failure: unknown;
  try {
    results = await benchmark(options, { log, dir: tempDir });
  } catch (err) {
    failure = err;
  }
  await stopAllGroups();
  const left = leftovers();
  removeTemp();
  if (failure) {
    log(`the bench failed: ${(failure as Error).stack ?? String(failure)}`);
    return 1;
  }
  const r = results!;
  r.leftovers = left;
  if (left.length) r.warnings.push(`processes still running after the bench: ${left.map((g) => `${g.name} (${g.pid})`).join(', ')}`);
  r.finishedAt = new Date().toISOString();
  r.seconds = (Date.now() - began) / 1000;
  const file = resolve(options.json);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
  process.stdout.write(renderReport(r));
  log(`results written to ${file}`);
  return left.length ? 1 : 0;
}

process.exitCode = await cli();
