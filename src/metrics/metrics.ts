import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { RequestObserver } from '../http/request-log.js';
import { type AuditSource, auditMetrics } from './audit-metrics.js';
import { configRevisionGauges, type RevisionSource } from './config-revision-gauges.js';
import { keyGauges, type KeySource } from './key-gauges.js';
import { requestObserver } from './request-metrics.js';
import { storeTimer, type StoreTimer } from './store-timing.js';

/** A scrape: the text format and its content type. */
export interface Exposition { text: string; contentType: string }

/**
 * How often the event loop's delay is sampled (nodejs_eventloop_lag_*), in ms. With prom-client's default,
 * 10 ms, an idle worker's main thread woke 105 times a second (16 with 100 ms: test/integration/
 * idle-wakeups.test.ts), and an idle Lanyard of two workers used 12.7 ms of CPU a second in all (4.7 ms with
 * 100; docs/performance.md: observability that costs little). A stall of 100 ms or more is always seen; shorter ones
 * are sampled ten times a second, 150 samples between two scrapes 15 s apart.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * One process's Prometheus metrics (docs/operations.md → Metrics), in a registry of its own (never prom-client's
 * global one, so that several apps in one process, as in tests, do not mix): requests, sign-ins, tokens,
 * throttling, store latency, the signing keys and Node's process metrics. In a cluster the primary adds up
 * every worker's registry (cluster-worker.ts, cluster-primary.ts).
 */
export class Metrics {
  readonly registry = new Registry();
  /** Called by src/http/request-log.ts for each answered request. */
  readonly observeRequest: RequestObserver;
  readonly #timeStore: StoreTimer;

  constructor() {
    // Process metrics keep the names dashboards know (process_*, nodejs_*); Lanyard's own start lanyard_.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    this.observeRequest = requestObserver(this.registry);
    this.#timeStore = storeTimer(this.registry);
  }

  /** The store with every operation timed; a store this has already timed is returned as it is. */
  timeStore(store: Store): Store {
    return this.#timeStore(store);
  }

  /**
   * Reports the signing-key rotation state, read from `source` at each scrape; called once (buildApp). The
   * gauges appear with this call: none rather than a misleading 0 before.
   */
  watchKeys(source: KeySource, clock: Clock): void {
    keyGauges(this.registry, source, clock);
  }

  /** Reports the configuration revisions, read from `source` at each scrape; called once (buildApp). */
  watchConfigRevision(source: RevisionSource): void {
    configRevisionGauges(this.registry, source);
  }

  /** Reports the audit recorder's dropped and waiting events, read from `source` at each scrape; called once (buildApp). */
  watchAudit(source: AuditSource): void {
    auditMetrics(this.registry, source);
  }

  /** This process's metrics, in the Prometheus text format. */
  async scrape(): Promise<Exposition> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
