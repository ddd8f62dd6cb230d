import type { AuditEvent } from '../../adapters/store.js';

/** An event as its writer gives it: the id, time (unless given) and count are added by the recorder. */
export type AuditInput = Omit<AuditEvent, 'id' | 'at' | 'count'> & { at?: string | undefined };

/**
 * Where every part of Lanyard records what happened for a school's audit trail (docs/school-console.md →
 * Audit and usage). `record` never waits and never throws: events are written in batches, off the request's
 * path, so that the trail costs sign-ins and token exchanges almost nothing; a store failure is logged and the
 * batch kept for the next try (up to a bound, then dropped with a count in the metrics).
 */
export interface AuditRecorder {
  record(event: AuditInput): void;
  /** Writes what is waiting (tests, shutdown). */
  flush(): Promise<void>;
}
