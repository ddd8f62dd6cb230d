import cluster from 'node:cluster';
import type { Registry } from 'prom-client';
import { sendToPrimary } from '../process/ipc-message.js';
import { NoAnswer, PendingReplies } from '../process/pending-replies.js';
import { type FinalCounts, isMetricsReply, isRegistryRequest, type MetricsReply, type MetricsRequest, MetricsUnavailableError, REGISTRY_READY, type RegistryJson } from './cluster-protocol.js';
import type { Exposition } from './metrics.js';

/**
 * The worker's side of metrics in a cluster (LANYARD_WORKERS > 1): each worker counts what it answers in its
 * own registry, and only the primary can add them up. Outside a cluster (one process, tests) none of this
 * runs and the process serves its own registry.
 */

/** The primary gives up on a worker that does not answer after 5 s (cluster-primary.ts); a worker waits a little longer for its word. */
const ASK_PRIMARY_TIMEOUT_MS = 6_000;

let shared: Registry | undefined;
/**
 * Once a worker replaced by a reload hands its counts over: what it answers from then on, the same counts,
 * so that every scrape has them exactly once, from the worker until it is gone and from the primary after.
 */
let final: Promise<RegistryJson> | undefined;

/** The kinds of metric a worker hands over: they add up over time. At run time a type is its name. */
const COUNTS = new Set<unknown>(['counter', 'histogram']);

/**
 * In a cluster worker, answers the primary's requests for `registry` (cluster-primary.ts adds every
 * worker's up), says it is ready to, and returns true; elsewhere does nothing and returns false.
 */
export function shareWithPrimary(registry: Registry): boolean {
  if (!cluster.isWorker) return false;
  if (!shared) {
    process.on('message', (m: unknown) => {
      if (!isRegistryRequest(m)) return;
      (final ?? shared!.getMetricsAsJSON()).then(
        (metrics) => sendToPrimary({ lanyard: 'registry', id: m.id, metrics }),
        (err: unknown) => sendToPrimary({ lanyard: 'registry', id: m.id, metrics: [], error: (err as Error).message }),
      );
    });
    sendToPrimary(REGISTRY_READY);
  }
  shared = registry;
  return true;
}

/**
 * A worker replaced by a reload, its requests finished: hands its counters and histograms to the primary,
 * which carries them into every later sum once this worker is gone (gauges describe a process, and go with
 * it). Resolves once sent; rejects if they could not be.
 */
export async function handOverFinalCounts(): Promise<void> {
  if (!shared) return;
  final = shared.getMetricsAsJSON().then((metrics) => metrics.filter((m) => COUNTS.has(m.type)));
  const message: FinalCounts = { lanyard: 'final-counts', metrics: await final };
  await new Promise<void>((resolve, reject) => sendToPrimary(message, (err) => (err ? reject(err) : resolve())));
}

const asked = new PendingReplies<MetricsReply>();
let listening = false;

/** Every worker's metrics added up, from the primary (a worker asked for /metrics on the main port). */
export async function askPrimary(timeoutMs = ASK_PRIMARY_TIMEOUT_MS): Promise<Exposition> {
  if (!process.send) throw new MetricsUnavailableError('not a cluster worker: no primary to ask');
  if (!listening) {
    listening = true;
    process.on('message', (m: unknown) => { if (isMetricsReply(m)) asked.settle(m.id, m); });
  }
  const { id, outcome } = asked.open(undefined, { ms: timeoutMs, reason: `the primary did not send the workers' metrics within ${timeoutMs} ms` });
  const request: MetricsRequest = { lanyard: 'metrics?', id };
  sendToPrimary(request, (err) => { if (err) asked.settle(id, new NoAnswer(`cannot reach the primary: ${err.message}`)); });
  const reply = await outcome;
  if (reply instanceof NoAnswer) throw new MetricsUnavailableError(reply.reason);
  if ('error' in reply) throw new MetricsUnavailableError(`the primary could not gather the workers' metrics: ${reply.error}`);
  return { text: reply.text, contentType: reply.contentType };
}
