import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { isMetricsReply, type MetricsRequest, MetricsUnavailableError } from './cluster-protocol.js';
import type { Exposition } from './metrics.js';

/**
 * The worker's side of metrics in a cluster (LANYARD_WORKERS > 1): each worker counts what it answers in its
 * own registry, and only the primary can add them up. Outside a cluster (one process, tests) none of this
 * runs and the process serves its own registry.
 */

/** prom-client gives up on workers that do not answer after 5 s; a worker waits a little longer for the primary's word. */
const ASK_PRIMARY_TIMEOUT_MS = 6_000;

/**
 * In a cluster worker, hands `registry` to prom-client's cluster support so the primary's
 * AggregatorRegistry collects it, and returns true; elsewhere does nothing and returns false.
 */
export function shareWithPrimary(registry: Registry): boolean {
  if (!cluster.isWorker) return false;
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one is what makes prom-client answer the primary's requests in a worker (it installs its
  // process 'message' listener then, once per process: lib/cluster.js addListeners).
  new AggregatorRegistry();
  return true;
}

type Pending = { resolve(e: Exposition): void; reject(err: Error): void; timer: NodeJS.Timeout };
const pending = new Map<number, Pending>();
let nextId = 0;
let listening = false;

function onReply(message: unknown): void {
  if (!isMetricsReply(message)) return;
  const waiting = pending.get(message.id);
  if (!waiting) return; // answered after its timeout
  pending.delete(message.id);
  clearTimeout(waiting.timer);
  if ('error' in message) waiting.reject(new MetricsUnavailableError(`the primary could not gather the workers' metrics: ${message.error}`));
  else waiting.resolve({ text: message.text, contentType: message.contentType });
}

/** Every worker's metrics added up, from the primary (a worker asked for /metrics on the main port). */
export function askPrimary(timeoutMs = ASK_PRIMARY_TIMEOUT_MS): Promise<Exposition> {
  if (!process.send) return Promise.reject(new MetricsUnavailableError('not a cluster worker: no primary to ask'));
  if (!listening) {
    listening = true;
    process.on('message', onReply);
  }
  const id = nextId++;
  return new Promise<Exposition>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new MetricsUnavailableError(`the primary did not send the workers' metrics within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    pending.set(id, { resolve, reject, timer });
    const request: MetricsRequest = { lanyard: 'metrics?', id };
    process.send!(request, undefined, undefined, (err: Error | null) => {
      if (!err) return;
      pending.delete(id);
      clearTimeout(timer);
      reject(new MetricsUnavailableError(`cannot reach the primary: ${err.message}`));
    });
  });
}
