import { join } from 'node:path';
import { argon2Slots } from '../src/cluster/sizing.js';
import { startBare } from './bare-server.js';
import { type BenchSetup, RAISED_LIMITS, writeBenchConfig } from './bench-config.js';
import { ensureBuilt } from './build.js';
import { measureBytesCeiling } from './bytes-ceiling.js';
import { busyPercent } from './cpu.js';
import { Client } from './http.js';
import { type LanyardServer, startLanyard } from './lanyard-server.js';
import { measureMachineLimits } from './limits.js';
import { startScraper } from './metrics-scraper.js';
import { type LogScan, scanLog } from './log-scan.js';
import { describeMachine } from './machine.js';
import type { Options } from './options.js';
import { startedGroups } from './proc.js';
import { ratios } from './ratios.js';
import { findRedisServer, startRedis } from './redis.js';
import type { Results, TargetResults } from './results.js';
import { treeRss } from './rss.js';
import { soak } from './scenarios/soak.js';
import { runSuite, type SuiteContext } from './suite.js';
import { LABELS } from './target.js';
import { target } from './targets.js';

export interface Io {
  log: (line: string) => void;
  /** A temporary directory for the run (config, databases, logs), removed by the caller. */
  dir: string;
}

interface Run extends SuiteContext {
  setup: BenchSetup;
  results: Results;
  workers: number;
  dir: string;
}

/**
 * The whole run, in order: build, the machine, its limits, bare oidc-provider, Lanyard on SQLite, then on
 * Redis, then the soak when asked. One server at a time, so that none takes CPU from another.
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
    targets: {}, ratios: [], warnings, processes: startedGroups, leftovers: [],
  };
  const run: Run = { options, argon2Total, log, warn, setup, results, workers, dir };

  if (!options.soakOnly) {
    const source = `${argon2Total} (cores − 1, shared by every worker (src/cluster/sizing.ts))`;
    log(`machine limits: RSA-4096 signing on ${machine.cores} cores; argon2id one at a time and ${argon2Total} at once (${source})`);
    results.limits = { ...(await measureMachineLimits(p.limitSeconds, argon2Total)), argon2ConcurrencySource: source };
    if (options.only.size === 0 || options.only.has('discovery') || options.only.has('jwks')) {
      log(`machine limits: a document's bytes from plain node:http in ${workers} processes`);
      results.limits.documentCeiling = { processes: workers, figure: await measureBytesCeiling(workers, p.docs) };
    }
    if (options.bare) await measureBare(run);
    if (options.stores.includes('sqlite')) await measureLanyard(run, 'sqlite', `sqlite:${join(dir, 'lanyard.db')}`);
    if (options.stores.includes('redis')) await measureOnRedis(run);
  }
  if (options.soak) await measureSoak(run);
  results.ratios = ratios(results);
  return results;
}

/** RAISED_LIMITS as `rate_limits.authorize_per_minute=10000000, …`. */
const raisedLimits = () => Object.entries(RAISED_LIMITS)
  .flatMap(([group, values]) => Object.entries(values).map(([k, v]) => `${group}.${k}=${v}`)).join(', ');

async function measureBare(run: Run): Promise<void> {
  const into: TargetResults = { label: LABELS.bare };
  run.results.targets.bare = into;
  const t0 = Date.now();
  const server = await startBare(run.setup);
  into.startupSeconds = (Date.now() - t0) / 1000;
  const t = target('bare', server.origin, run.setup, server.group.pid);
  try { await runSuite(t, run, into); } finally { await t.http.close(); await server.stop(); }
}

/** Lanyard as every run of it is started (the run's setup, workers and --lanyard-env) on `store`. */
const launchLanyard = (run: Run, name: string, store: string): Promise<LanyardServer> =>
  startLanyard({ setup: run.setup, store, dir: run.dir, label: name, workers: run.workers, extraEnv: run.options.lanyardEnv });

/**
 * Lanyard's log after a run (`who` names that Lanyard), with a warning for errors and 5xx answers, and for a
 * shutdown the bench did not ask for (a signal from elsewhere, or Lanyard stopping by itself): that
 * explains a run of failures, so it says when it began.
 */
async function checkLog(run: Run, who: string, server: LanyardServer, startedAt: number, stoppedAt: number): Promise<LogScan> {
  const log = await scanLog(server.logFile);
  const early = log.shutdowns.find((s) => s.time < stoppedAt - 250);
  if (early) {
    run.warn(`${who} began shutting down ${((early.time - startedAt) / 1000).toFixed(1)} s after it started (${early.signal ?? 'no signal'}), before the bench stopped it: the figures after that are not Lanyard's`);
  }
  if (log.errors || log.serverErrors) {
    run.warn(`${who} logged ${log.errors} errors and ${log.serverErrors} 5xx answers: ${log.samples.slice(0, 4).join(' ; ')}`);
  }
  return log;
}

async function measureLanyard(run: Run, key: 'sqlite' | 'redis', store: string): Promise<void> {
  const label = LABELS[key];
  const into: TargetResults = { label };
  run.results.targets[key] = into;
  const t0 = Date.now();
  const server = await launchLanyard(run, key, store);
  into.startupSeconds = (Date.now() - t0) / 1000;
  run.log(`${label}: ready in ${into.startupSeconds.toFixed(1)} s`);
  const t = target(key, server.origin, run.setup, server.group.pid);
  const scraper = startScraper(server.metricsUrl);
  let stoppedAt = Number.POSITIVE_INFINITY;
  try {
    await runSuite(t, run, into);
    const tree = await treeRss(server.group.pid);
    into.processes = { count: tree.processes, rssMiB: tree.mib, eachMiB: tree.each };
  } finally {
    into.metrics = await scraper.stop();
    await t.http.close();
    stoppedAt = Date.now();
    await server.stop();
  }
  if (!into.metrics.tokensIssued) run.warn(`${label}: its metrics could not be scraped at ${server.metricsUrl}`);
  into.log = { ...(await checkLog(run, label, server, t0, stoppedAt)), requestsSent: Client.sent.get(server.origin) ?? 0 };
}

/** Lanyard on a throwaway redis-server; without one, the Redis column says why it is empty. */
async function measureOnRedis(run: Run): Promise<void> {
  const binary = findRedisServer();
  if (!binary) {
    const skipped = 'redis-server is not installed (apt-get install redis-server): Redis column skipped';
    run.results.targets.redis = { label: LABELS.redis, skipped };
    run.warn(skipped);
    return;
  }
  const redis = await startRedis(binary, run.dir);
  run.results.settings.redis = redis.persistence;
  try { await measureLanyard(run, 'redis', redis.url); } finally { await redis.stop(); }
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
