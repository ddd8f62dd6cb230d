import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { isFinalCounts, isMetricsRequest, isRegistryReady, isRegistryReply, type MetricsReply, MetricsUnavailableError, type RegistryJson, type RegistryRequest } from './cluster-protocol.js';
import { sendToWorker } from '../process/ipc-message.js';
import { NoAnswer, PendingReplies } from '../process/pending-replies.js';
import type { MetricsConfig } from '../config/metrics.js';
import type { Exposition } from './metrics.js';
import { type MetricsLog, startMetricsPort } from './metrics-server.js';

/**
 * The primary's side of metrics in a cluster (LANYARD_WORKERS > 1): it serves no requests, so it has
 * nothing to count itself, but it alone can ask every worker for its registry (cluster-worker.ts) and add
 * them up with prom-client's AggregatorRegistry.aggregate: counters and histograms are summed (with those
 * of the workers a reload replaced), and each gauge by its own `aggregator` (the key gauges: min or max,
 * key-gauges.ts; Node's: as prom-client defines them).
 */

export interface PrimaryMetrics {
  /** The metrics port it listens on (LANYARD_METRICS_PORT, the chosen one when 0), or undefined. */
  readonly port: number | undefined;
  /** Stops answering workers and closes the metrics port. */
  close(): Promise<void>;
}

export interface PrimaryMetricsOptions {
  /** Where it says that metrics are off (production without a token or port), or on which port they are. */
  log?: MetricsLog;
}

const quiet: MetricsLog = { info() {}, warn() {} };

/**
 * Call once in the cluster primary, before forking (a worker says once that it answers): answers workers asked for /metrics on the
 * main port (the sum of every worker), and with LANYARD_METRICS_PORT serves that sum on the metrics port
 * itself (with the bearer token when LANYARD_METRICS_TOKEN is set).
 */
export async function servePrimaryMetrics(config: MetricsConfig, options: PrimaryMetricsOptions = {}): Promise<PrimaryMetrics> {
  const log = options.log ?? quiet;
  const workers = askingWorkers(log);
  const gather = async (): Promise<Exposition> => {
    try {
      const registry = AggregatorRegistry.aggregate(await workers.every());
      return { text: await registry.metrics(), contentType: registry.contentType };
    } catch (err) {
      // A worker that did not answer within 5 s (busy, or dying): this scrape is lost, not the next.
      throw new MetricsUnavailableError(`the workers' metrics could not be gathered: ${(err as Error).message}`);
    }
  };
  const answer = (worker: Worker, message: unknown) => {
    if (!isMetricsRequest(message)) return;
    const { id } = message;
    const reply = (r: MetricsReply) => sendToWorker(worker, r);
    gather().then(
      (e) => reply({ lanyard: 'metrics', id, ...e }),
      (err: unknown) => reply({ lanyard: 'metrics', id, error: (err as Error).message }),
    );
  };
  cluster.on('message', answer);
  const server = await startMetricsPort(config, gather, log, 'metrics of every worker served');
  return {
    port: server?.port,
    close: async () => {
      cluster.off('message', answer);
      workers.stop();
      await server?.close();
    },
  };
}

/** A worker's registry is asked for at most this long; then the scrape fails (503), not the next one. */
const ASK_WORKER_TIMEOUT_MS = 5_000;

/**
 * Every worker's registry, and the counts of the workers a reload replaced, each exactly once:
 * - only workers that said they answer (cluster-worker.ts) are asked: one still starting has counted nothing;
 * - a worker being replaced hands over its counters and histograms (`final-counts`) and answers with those
 *   until it is gone; they join the carried counts only then, on its disconnection, and a scrape takes the
 *   carried counts in the same instant as it picks whom to ask, so it has them from one side or the other;
 * - a worker that dies takes its counts with it, as any process does (Prometheus sees a counter reset).
 */
function askingWorkers(log: MetricsLog) {
  const answering = new Set<Worker>();
  const finals = new Map<Worker, RegistryJson>();
  const asked = new PendingReplies<{ metrics: RegistryJson; error?: string }, Worker>();
  let carried: Promise<RegistryJson> = Promise.resolve([]);

  const onMessage = (worker: Worker, m: unknown) => {
    if (isRegistryReady(m)) answering.add(worker);
    else if (isFinalCounts(m)) finals.set(worker, m.metrics);
    else if (isRegistryReply(m)) asked.settle(m.id, m);
  };
  const onGone = (worker: Worker) => {
    answering.delete(worker);
    const last = finals.get(worker);
    finals.delete(worker);
    asked.settleAll({ metrics: last ?? [] }, worker);
    if (!last) return;
    carried = carried.then((before) => {
      try {
        return AggregatorRegistry.aggregate([before, last]).getMetricsAsJSON();
      } catch (err) {
        log.warn({ event: 'metrics.carry_failed', err }, 'a replaced worker’s counts could not be carried into the sums');
        return before;
      }
    });
  };
  cluster.on('message', onMessage);
  cluster.on('disconnect', onGone);
  cluster.on('exit', onGone);

  const ask = async (worker: Worker): Promise<RegistryJson> => {
    const pid = worker.process.pid;
    const { id, outcome } = asked.open(worker, { ms: ASK_WORKER_TIMEOUT_MS, reason: `worker ${pid} did not answer within ${ASK_WORKER_TIMEOUT_MS / 1000} s` });
    const request: RegistryRequest = { lanyard: 'registry?', id };
    sendToWorker(worker, request, (err) => { if (err) asked.settle(id, new NoAnswer(`worker ${pid} could not be asked: ${err.message}`)); });
    const reply = await outcome;
    if (reply instanceof NoAnswer) throw new Error(reply.reason);
    if (reply.error) throw new Error(reply.error);
    return reply.metrics;
  };

  return {
    /** Each answering worker's registry and the carried counts: what a scrape adds up. */
    every: async (): Promise<RegistryJson[]> => {
      const base = carried; // in the same instant as the workers to ask are picked
      const live = [...answering].filter((w) => w.isConnected()).map(ask);
      return [...(await Promise.all(live)), await base];
    },
    stop: () => {
      cluster.off('message', onMessage);
      cluster.off('disconnect', onGone);
      cluster.off('exit', onGone);
    },
  };
}
