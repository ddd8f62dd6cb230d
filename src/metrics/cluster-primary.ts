import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { isMetricsRequest, type MetricsReply, MetricsUnavailableError } from './cluster-protocol.js';
import type { MetricsConfig } from './metrics-config.js';
import type { Exposition } from './metrics.js';
import { type MetricsLog, startMetricsPort } from './metrics-server.js';

/**
 * The primary's side of metrics in a cluster (LANYARD_WORKERS > 1): it serves no requests, so it has
 * nothing to count itself, but it alone can ask every worker for its registry (cluster-worker.ts) and add
 * them up with prom-client's AggregatorRegistry: counters and histograms are summed, and each gauge by its
 * own `aggregator` (the key gauges: min or max, key-gauges.ts; Node's: as prom-client defines them).
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
  const aggregator = new AggregatorRegistry();
  const gather = async (): Promise<Exposition> => {
    try {
      return { text: await aggregator.clusterMetrics(), contentType: aggregator.contentType };
    } catch (err) {
      // A worker that did not answer within prom-client's 5 s (busy, or dying): this scrape is lost, not the next.
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
      await server?.close();
    },
  };
}
