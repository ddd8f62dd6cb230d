import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../clock.js';
import { nextRotation } from '../keys/policy.js';

/**
 * The signing-key rotation state (src/keys/key-rotation.ts), read when scraped: nothing is kept up to date
 * between scrapes. Every worker publishes the same keys, so across workers these are not summed: the fewest
 * published keys, the oldest signing key and the nearest rotation, so that one worker that failed to
 * switch shows (docs/operations.md → Metrics).
 */

/** What the gauges read: the provider host's current key set (ProviderHost.keys). */
export interface KeyState {
  signing: { notBefore: Date };
  published: readonly unknown[];
}
export type KeySource = () => KeyState;

export function keyGauges(registry: Registry, keys: KeySource, clock: Clock): void {
  const seconds = (ms: number) => ms / 1000;
  new Gauge({
    name: 'lanyard_signing_keys_published',
    help: 'Signing keys in the published key set (JWKS): 1 or 2 (this month\'s and last month\'s).',
    aggregator: 'min',
    registers: [registry],
    collect() { this.set(keys().published.length); },
  });
  new Gauge({
    name: 'lanyard_signing_key_age_seconds',
    help: 'Seconds since the current signing key started signing (the start of its certificate).',
    aggregator: 'max',
    registers: [registry],
    collect() { this.set(seconds(clock.now().getTime() - keys().signing.notBefore.getTime())); },
  });
  new Gauge({
    name: 'lanyard_signing_key_next_rotation_seconds',
    help: 'Seconds until the next scheduled switch of signing key (00:00 UTC on the 1st of next month).',
    aggregator: 'min',
    registers: [registry],
    collect() {
      const now = clock.now();
      this.set(seconds(nextRotation(now).getTime() - now.getTime()));
    },
  });
}
