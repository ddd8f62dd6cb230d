import { Gauge, type Registry } from 'prom-client';
import type { RevisionReport } from '../clients/config-revision-watch.js';
import { shortHash } from '../clients/config-revision.js';

/** What the gauges read: the configuration revisions, from the store at each scrape. */
export type RevisionSource = () => Promise<RevisionReport>;

/**
 * The configuration file's revisions (docs/operations.md → Metrics, Rolling configuration changes), read from
 * the store when scraped. A scrape that cannot read the store leaves the last values. Across workers: the
 * highest, so that one worker that disagrees shows.
 */
export function configRevisionGauges(registry: Registry, source: RevisionSource): void {
  let report: RevisionReport | undefined;
  // A scrape collects every gauge at once: they share one read of the store.
  let reading: Promise<RevisionReport | undefined> | undefined;
  const read = () => (reading ??= source().catch(() => report).then((r) => {
    report = r;
    reading = undefined;
    return r;
  }));
  new Gauge({
    name: 'lanyard_config_revision_mismatch',
    help: '1 when the instances on this store run different configuration revisions, or this one\'s file is not the store\'s; 0 when all agree.',
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const r = await read();
      if (r) this.set(r.mismatch ? 1 : 0);
    },
  });
  new Gauge({
    name: 'lanyard_config_revisions_running',
    help: 'How many different configuration revisions the running instances on this store run (1 when all agree).',
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const r = await read();
      if (r) this.set(r.running.length);
    },
  });
  new Gauge({
    name: 'lanyard_config_revision_info',
    help: 'The configuration revision this instance runs (its file\'s `revision` and the start of its hash); always 1.',
    labelNames: ['revision', 'hash'],
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const r = await read();
      this.reset();
      if (r) this.set({ revision: String(r.mine.version), hash: shortHash(r.mine.hash) }, 1);
    },
  });
}
