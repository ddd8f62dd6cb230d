import { Counter, Gauge, type Registry } from 'prom-client';

/** What the metrics read from the audit recorder (src/audit/audit-log.ts AuditLog.stats) when scraped. */
export type AuditSource = () => { dropped: number; waiting: number };

/**
 * The audit trail's writing (docs/operations.md → Metrics): events dropped because the store failed for long
 * (the recorder holds a bounded number), and events waiting to be written. Summed across workers.
 */
export function auditMetrics(registry: Registry, source: AuditSource): void {
  let counted = 0;
  new Counter({
    name: 'lanyard_audit_events_dropped_total',
    help: 'Audit trail events dropped, not written: the store failed while the recorder already held as many as it keeps.',
    registers: [registry],
    collect() {
      const { dropped } = source();
      if (dropped > counted) this.inc(dropped - counted);
      counted = dropped;
    },
  });
  new Gauge({
    name: 'lanyard_audit_events_waiting',
    help: 'Audit trail events recorded and not yet written to the store (written every 250 ms; more while the store fails).',
    aggregator: 'sum',
    registers: [registry],
    collect() { this.set(source().waiting); },
  });
}
