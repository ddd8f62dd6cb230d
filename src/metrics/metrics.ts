import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { RequestObserver } from '../http/request-log.js';
import { keyGauges, type KeySource } from './key-gauges.js';
import { requestObserver } from './request-metrics.js';
import { storeTimer, type StoreTimer } from './store-timing.js';

/** A scrape: the text format and its content type. */
export interface Exposition { text: string; contentType: string }

/**
 * One process's Prometheus metrics (README → Metrics), in a registry of its own (never prom-client's
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
    collectDefaultMetrics({ register: this.registry });
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

  /** This process's metrics, in the Prometheus text format. */
  async scrape(): Promise<Exposition> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
