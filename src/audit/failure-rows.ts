import type { Counters } from '../../adapters/store.js';
import type { AuditInput } from './audit-recorder.js';

/**
 * A bound on the rows a school's failed sign-ins make in the audit trail (docs/storage.md → The audit trail).
 * Failures already merge per day, source, method and person (interactions/audit-sign-in.ts), but a flood
 * from many sources would still make a row for each: so each school's UTC day has at most
 * FAILURE_ROWS_PER_DAY rows of its own, and every failure that would start a further row merges into the
 * day's one overflow row instead (aggregate `fail:<day>:overflow`: no source, no person, a detail saying so).
 * Failures that merge into a row the day already has still go there. The rows are counted in the store
 * (Counters), so every instance counts alike: a counter per row key says whether the row is new, a counter
 * per school and day how many rows it has.
 */

/** The most rows of failed sign-ins a school's UTC day makes before they merge into the overflow row. */
export const FAILURE_ROWS_PER_DAY = 2_000;

const DAY_SECONDS = 24 * 60 * 60;

/** What the overflow row says of itself (its detail). */
export const OVERFLOW_DETAIL = {
  overflow: `more sources than the day's ${FAILURE_ROWS_PER_DAY} rows of failed sign-ins: merged here, without source or person`,
};

type FailureInput = AuditInput & { at: string; aggregate: string };

/** The day's overflow row of the school: the failure's kind, action and time, nothing that names a source or person. */
export function overflowEvent(e: FailureInput): AuditInput {
  const day = e.at.slice(0, 10);
  return {
    organisationId: e.organisationId, at: e.at, kind: e.kind, action: e.action, aggregate: `fail:${day}:overflow`, detail: OVERFLOW_DETAIL,
  };
}

/**
 * The failed sign-in as the day's rows allow: itself while its row is one the day has, or a new one within
 * the bound; the day's overflow row otherwise. When the counters cannot be read, the overflow row (the
 * bound holds; the failure is still counted).
 */
export async function boundFailureRow(
  counters: Pick<Counters, 'hitCounter' | 'clearCounter'>, e: FailureInput, most: number = FAILURE_ROWS_PER_DAY,
): Promise<AuditInput> {
  const day = e.at.slice(0, 10);
  const rowKey = `audit-failure-row:${e.organisationId}:${e.aggregate}`;
  try {
    if ((await counters.hitCounter(rowKey, DAY_SECONDS)).count > 1) return e;
    if ((await counters.hitCounter(`audit-failure-rows:${e.organisationId}:${day}`, DAY_SECONDS)).count <= most) return e;
    // Not this key's row: its next failure asks again (and goes to the overflow row again).
    await counters.clearCounter(rowKey);
  } catch {
    // The store failed: the overflow row (the append retries it with the rest), and this key asks again next time.
    await counters.clearCounter(rowKey).catch(() => undefined);
  }
  return overflowEvent(e);
}
