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
  const read = async () => {
    report = await source().catch(() => report);
    return report;
  };
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
    collect() {
      if (report) this.set(report.running.length);
    },
  });
  new Gauge({
    name: 'lanyard_config_revision_info',
    help: 'The configuration revision this instance runs (its file\'s `revision` and the start of its hash); always 1.',
    labelNames: ['revision', 'hash'],
    aggregator: 'max',
    registers: [registry],
    collect() {
      this.reset();
      if (report) this.set({ revision: String(report.mine.version), hash: shortHash(report.mine.hash) }, 1);
    },
  });
}
