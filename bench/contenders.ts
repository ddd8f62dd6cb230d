import { join } from 'node:path';
import { startBare } from './bare-server.js';
import type { BenchSetup } from './bench-config.js';
import { Client } from './http.js';
import { type LanyardServer, startLanyard } from './lanyard-server.js';
import { type LogScan, scanLog } from './log-scan.js';
import { startScraper } from './metrics-scraper.js';
import type { Options } from './options.js';
import { findRedisServer, startRedis } from './redis.js';
import type { Results, TargetResults } from './results.js';
import { treeRss } from './rss.js';
import { LABELS, type Target, type TargetKey } from './target.js';
import { target } from './targets.js';

/** What starting and stopping the servers needs from the run. */
export interface Launch {
  options: Options;
  setup: BenchSetup;
  results: Results;
  workers: number;
  dir: string;
  log: (line: string) => void;
  warn: (line: string) => void;
}

/** A server under test, started, with where its figures go and how it is stopped and checked afterwards. */
export interface Contender {
  key: TargetKey;
  t: Target;
  into: TargetResults;
  /** Lanyard's environment (its store and keys), for commands run beside it; absent for bare oidc-provider. */
  env?: NodeJS.ProcessEnv;
  /** Stops it (and what it needs, a redis-server), then checks its log. Never throws. */
  finish(): Promise<void>;
}

/**
 * Every server the options ask for, started one after another in the order they are measured in (bare
 * oidc-provider, Lanyard on SQLite, the same with the audit trail off, Lanyard on Redis) and all left running, so that each scenario can be
 * measured on every server back to back (suite.ts). A server that does not start stops those started before
 * it, and the error goes on.
 */
export async function startContenders(run: Launch): Promise<Contender[]> {
  const started: Contender[] = [];
  try {
    if (run.options.bare) started.push(await startBareContender(run));
    if (run.options.stores.includes('sqlite')) {
      started.push(await startLanyardContender(run, 'sqlite', `sqlite:${join(run.dir, 'lanyard.db')}`));
      // Measured right after SQLite, so that the two figures whose ratio is the trail's cost are seconds apart.
      if (run.options.auditOff) {
        started.push(await startLanyardContender(run, 'audit-off', `sqlite:${join(run.dir, 'lanyard-audit-off.db')}`, undefined, { LANYARD_CONFIG: run.setup.auditOffConfigPath }));
      }
    }
    if (run.options.stores.includes('redis')) {
      const redis = await startRedisContender(run);
      if (redis) started.push(redis);
    }
  } catch (err) {
    await finishAll(started);
    throw err;
  }
  return started;
}

/** Stops every server, each whatever happens to another. */
export async function finishAll(contenders: Contender[]): Promise<void> {
  for (const c of contenders) await c.finish();
}

/** Runs a server's stop and checks; a failure is a warning, so that the other servers are still stopped. */
async function neverThrows(run: Launch, label: string, finish: () => Promise<void>): Promise<void> {
  try {
    await finish();
  } catch (err) {
    run.warn(`${label}: stopping it and reading its log failed: ${(err as Error).message}`);
  }
}

async function startBareContender(run: Launch): Promise<Contender> {
  const into: TargetResults = { label: LABELS.bare };
  run.results.targets.bare = into;
  const t0 = Date.now();
  const server = await startBare(run.setup);
  into.startupSeconds = (Date.now() - t0) / 1000;
  const t = target('bare', server.origin, run.setup, server.group.pid);
  return {
    key: 'bare', t, into,
    finish: () => neverThrows(run, LABELS.bare, async () => {
      await t.http.close();
      await server.stop();
    }),
  };
}

/** Lanyard as every run of it is started (the run's setup, workers and --lanyard-env, over `env`) on `store`. */
export const launchLanyard = (run: Launch, name: string, store: string, env: Record<string, string> = {}): Promise<LanyardServer> =>
  startLanyard({ setup: run.setup, store, dir: run.dir, label: name, workers: run.workers, extraEnv: { ...env, ...run.options.lanyardEnv } });

/**
 * Lanyard on `store` (with `env` of its own), its metrics scraped from the start; `after` runs once it has
 * stopped (a redis-server's stop).
 */
async function startLanyardContender(
  run: Launch, key: Exclude<TargetKey, 'bare'>, store: string, after?: () => Promise<void>, env?: Record<string, string>,
): Promise<Contender> {
  const label = LABELS[key];
  const into: TargetResults = { label };
  run.results.targets[key] = into;
  const t0 = Date.now();
  const server = await launchLanyard(run, key, store, env);
  into.startupSeconds = (Date.now() - t0) / 1000;
  run.log(`${label}: ready in ${into.startupSeconds.toFixed(1)} s`);
  const t = target(key, server.origin, run.setup, server.group.pid);
  const scraper = startScraper(server.metricsUrl);
  return {
    key, t, into, env: server.env,
    finish: () => neverThrows(run, label, async () => {
      let stoppedAt = Number.POSITIVE_INFINITY;
      try {
        const tree = await treeRss(server.group.pid);
        into.processes = { count: tree.processes, rssMiB: tree.mib, eachMiB: tree.each };
      } finally {
        into.metrics = await scraper.stop();
        await t.http.close();
        stoppedAt = Date.now();
        await server.stop();
        await after?.();
      }
      if (!into.metrics.tokensIssued) run.warn(`${label}: its metrics could not be scraped at ${server.metricsUrl}`);
      into.log = { ...(await checkLog(run, label, server, t0, stoppedAt)), requestsSent: Client.sent.get(server.origin) ?? 0 };
    }),
  };
}

/** Lanyard on a throwaway redis-server; without one, the Redis column says why it is empty. */
async function startRedisContender(run: Launch): Promise<Contender | undefined> {
  const binary = findRedisServer();
  if (!binary) {
    const skipped = 'redis-server is not installed (apt-get install redis-server): Redis column skipped';
    run.results.targets.redis = { label: LABELS.redis, skipped };
    run.warn(skipped);
    return undefined;
  }
  const redis = await startRedis(binary, run.dir);
  run.results.settings.redis = redis.persistence;
  try {
    return await startLanyardContender(run, 'redis', redis.url, () => redis.stop());
  } catch (err) {
    await redis.stop();
    throw err;
  }
}

/**
 * Lanyard's log after a run (`who` names that Lanyard), with a warning for errors and 5xx answers, and for a
 * shutdown the bench did not ask for (a signal from elsewhere, or Lanyard stopping by itself): that
 * explains a run of failures, so it says when it began.
 */
export async function checkLog(run: Launch, who: string, server: LanyardServer, startedAt: number, stoppedAt: number): Promise<LogScan> {
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
