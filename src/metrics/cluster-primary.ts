import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { isFinalCounts, isMetricsRequest, isRegistryReply, type MetricsReply, MetricsUnavailableError, type RegistryJson, type RegistryRequest } from './cluster-protocol.js';
import type { MetricsConfig } from './metrics-config.js';
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
 * Call once in the cluster primary, before or after forking: answers workers asked for /metrics on the
 * main port (the sum of every worker), and with LANYARD_METRICS_PORT serves that sum on the metrics port
 * itself (with the bearer token when LANYARD_METRICS_TOKEN is set).
 */
export async function servePrimaryMetrics(config: MetricsConfig, options: PrimaryMetricsOptions = {}): Promise<PrimaryMetrics> {
  const workers = askingWorkers();
  const gather = async (): Promise<Exposition> => {
    try {
      const registry = AggregatorRegistry.aggregate([...(await workers.registries()), await workers.carried()]);
      return { text: await registry.metrics(), contentType: registry.contentType };
    } catch (err) {
      // A worker that did not answer within 5 s (busy, or dying): this scrape is lost, not the next.
      throw new MetricsUnavailableError(`the workers' metrics could not be gathered: ${(err as Error).message}`);
    }
  };
  const answer = (worker: Worker, message: unknown) => {
    if (!isMetricsRequest(message)) return;
    const { id } = message;
    const reply = (r: MetricsReply) => { if (worker.isConnected()) worker.send(r); };
    gather().then(
      (e) => reply({ lanyard: 'metrics', id, ...e }),
      (err: unknown) => reply({ lanyard: 'metrics', id, error: (err as Error).message }),
    );
  };
  cluster.on('message', answer);
  const server = await startMetricsPort(config, gather, options.log ?? quiet, 'metrics of every worker served');
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
 * Asks every connected worker for its registry (cluster-worker.ts answers), and keeps the final counts of
 * the workers a reload replaced: added to every later sum, so that no counter goes down on a reload. (A
 * worker that dies takes its counts with it, as any process does: Prometheus sees a counter reset.)
 */
function askingWorkers() {
  let nextId = 0;
  const waiting = new Map<number, { worker: Worker; resolve: (metrics: RegistryJson) => void }>();
  let carried: Promise<RegistryJson> = Promise.resolve([]);
  const onMessage = (worker: Worker, m: unknown) => {
    if (isRegistryReply(m)) {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      w?.resolve(m.metrics);
    } else if (isFinalCounts(m)) {
      carried = carried.then((before) => AggregatorRegistry.aggregate([before, m.metrics]).getMetricsAsJSON());
    }
  };
  // A worker that exits before answering: nothing more will come from it.
  const onExit = (worker: Worker) => {
    for (const [id, w] of waiting) if (w.worker === worker) { waiting.delete(id); w.resolve([]); }
  };
  cluster.on('message', onMessage);
  cluster.on('exit', onExit);
  const ask = (worker: Worker) => new Promise<RegistryJson>((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`worker ${worker.process.pid} did not answer within ${ASK_WORKER_TIMEOUT_MS / 1000} s`));
    }, ASK_WORKER_TIMEOUT_MS);
    waiting.set(id, { worker, resolve: (metrics) => { clearTimeout(timer); resolve(metrics); } });
    const request: RegistryRequest = { lanyard: 'registry?', id };
    worker.send(request, undefined, (err: Error | null) => { if (err) waiting.get(id)?.resolve([]); });
  });
  return {
    registries: () => Promise.all(Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w?.isConnected()).map(ask)),
    carried: () => carried,
    stop: () => {
      cluster.off('message', onMessage);
      cluster.off('exit', onExit);
    },
  };
}
