import { join } from 'node:path';
import { argon2Slots } from '../src/process/sizing.js';
import { RAISED_LIMITS, writeBenchConfig } from './bench-config.js';
import { ensureBuilt } from './build.js';
import { measureBytesCeiling } from './bytes-ceiling.js';
import { checkLog, finishAll, type Launch, launchLanyard, startContenders } from './contenders.js';
import { busyPercent } from './cpu.js';
import { measureMachineLimits } from './limits.js';
import { describeMachine } from './machine.js';
import type { Options } from './options.js';
import { startedGroups } from './proc.js';
import { ratios } from './ratios.js';
import type { Results } from './results.js';
import { soak } from './scenarios/soak.js';
import { runSuite, type SuiteContext } from './suite.js';
import { target } from './targets.js';

export interface Io {
  log: (line: string) => void;
  /** A temporary directory for the run (config, databases, logs), removed by the caller. */
  dir: string;
}

interface Run extends SuiteContext, Launch {}

/**
 * The whole run, in order: build, the machine, its limits, then bare oidc-provider, Lanyard on SQLite and
 * Lanyard on Redis, all started, each scenario measured on one after another (suite.ts), then the soak
 * when asked. One server is measured at a time; the others sit idle meanwhile.
 */
export async function benchmark(options: Options, io: Io): Promise<Results> {
  const { log, dir } = io;
  const p = options.profile;
  const warnings: string[] = [];
  const warn = (line: string) => { warnings.push(line); log(`WARNING: ${line}`); };
  const startedAt = new Date().toISOString();
  const built = ensureBuilt(log);
  if (built.seconds) log(`built in ${built.seconds.toFixed(0)} s`);
  if (built.warning) warn(built.warning);
  const machine = { ...describeMachine(), busyBeforePercent: await busyPercent(1000) };
  if ((machine.busyBeforePercent ?? 0) > 15) {
    warn(`the machine was ${machine.busyBeforePercent} % busy before the run: other work lowers and scatters every figure`);
  }
  const workers = options.workers ?? machine.cores;
  const pupils = Math.max(p.morningPeak.pupils, 10);
  const setup = await writeBenchConfig(dir, { pupils, staff: p.staff });
  // Lanyard bounds argon2 for the machine as a whole, however many workers share it.
  const argon2Total = argon2Slots();
  const results: Results = {
    tool: 'lanyard-bench', version: 1, startedAt, finishedAt: '', seconds: 0, profile: options.soakOnly ? 'soak only' : p.name, machine,
    settings: {
      workers, pupils, staff: p.staff, lanyardEnv: options.lanyardEnv,
      notes: [
        `raised for the bench, so that it measures throughput rather than the budgets (every counter is still kept): ${raisedLimits()}`,
        'all traffic comes from 127.0.0.1 over keep-alive connections; the load generator runs on the same machine and takes some of its CPU',
      ],
    },
    targets: {}, ratios: [], phases: [], warnings, processes: startedGroups, leftovers: [],
  };
  const run: Run = { options, argon2Total, log, warn, setup, results, workers, dir, phases: results.phases, began: Date.parse(startedAt) };

  if (!options.soakOnly) {
    const source = `${argon2Total} (cores − 1, shared by every worker (src/process/sizing.ts))`;
    log(`machine limits: RSA-4096 signing on ${machine.cores} cores; argon2id one at a time and ${argon2Total} at once (${source})`);
    results.limits = { ...(await measureMachineLimits(p.limitSeconds, argon2Total)), argon2ConcurrencySource: source };
    if (options.only.size === 0 || options.only.has('discovery') || options.only.has('jwks')) {
      log(`machine limits: a document's bytes from plain node:http in ${workers} processes`);
      results.limits.documentCeiling = { processes: workers, figure: await measureBytesCeiling(workers, p.docs) };
    }
    await measureServers(run);
  }
  if (options.soak) await measureSoak(run);
  results.ratios = ratios(results);
  return results;
}

/** RAISED_LIMITS as `rate_limits.authorize_per_minute=10000000, …`. */
const raisedLimits = () => Object.entries(RAISED_LIMITS)
  .flatMap(([group, values]) => Object.entries(values).map(([k, v]) => `${group}.${k}=${v}`)).join(', ');

/** Every server started, every scenario measured on each in turn (suite.ts), every server stopped. */
async function measureServers(run: Run): Promise<void> {
  const contenders = await startContenders(run);
  try {
    await runSuite(contenders, run);
  } finally {
    await finishAll(contenders);
  }
}

async function measureSoak(run: Run): Promise<void> {
  const minutes = run.options.soakMinutes;
  run.log(`soak: ${minutes} min of mixed traffic on a fresh Lanyard (SQLite), resident size sampled`);
  const t0 = Date.now();
  const server = await launchLanyard(run, 'soak', `sqlite:${join(run.dir, 'soak.db')}`);
  const t = target('sqlite', server.origin, run.setup, server.group.pid, 'Lanyard (SQLite, soak)');
  let stoppedAt = Number.POSITIVE_INFINITY;
  try {
    run.results.soak = { ...(await soak(t, server.group.pid, { minutes, concurrency: 8, log: run.log })), store: 'SQLite' };
  } finally {
    await t.http.close();
    stoppedAt = Date.now();
    await server.stop();
  }
  await checkLog(run, "the soak's Lanyard", server, t0, stoppedAt);
}
