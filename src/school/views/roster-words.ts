import type { RosterImportRun } from '../../../adapters/store.js';
import type { ImportResult } from '../../roster/import-roster.js';
import { KIND_LABELS, type KindCounts, PLAN_KINDS } from '../../roster/plan/plan-types.js';

/** How the console's roster pages name an export's format, a time and who ran an import. */

const FORMATS: Record<string, string> = { 'oneroster-1.1': 'OneRoster 1.1', 'oneroster-1.2': 'OneRoster 1.2', 'one-file': 'one-file CSV' };

export const formatName = (format: string): string => FORMATS[format] ?? format;

/** `2027-01-15 08:00` from an ISO 8601 time (UTC). */
export const utcTime = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

/** `jane.doe in the console`, `jane.doe through the school API`, `the operator (command line)`, or the record as it is. */
export function byWhom(by: RosterImportRun['by']): string {
  if (by.startsWith('console:')) return `${by.slice('console:'.length)} in the console`;
  if (by.startsWith('api:')) return `${by.slice('api:'.length)} through the school API`;
  if (by.startsWith('cli:')) return 'the operator (command line)';
  return by;
}

/** `users: 3 added, 1 changed, 2 leaving; classes: 1 added`, or `nothing`. */
export function countsSaid(counts: Record<string, KindCounts>): string {
  const parts = PLAN_KINDS.flatMap((k) => {
    const c = counts[k];
    if (!c || !(c.added || c.changed || c.leaving)) return [];
    const said = [c.added && `${c.added} added`, c.changed && `${c.changed} changed`, c.leaving && `${c.leaving} leaving`].filter(Boolean);
    return [`${KIND_LABELS[k][0]}: ${said.join(', ')}`];
  });
  return parts.join('; ') || 'nothing';
}

/** The message after Apply. */
export function appliedMessage(result: ImportResult): string {
  if (!result.applied || !result.run) return 'Nothing was changed: Lanyard already holds this roster.';
  const purged = result.purged.length ? ` ${result.purged.length} leavers past the retention period were deleted.` : '';
  const failed = result.purgeError !== undefined ? ' Deleting the leavers past the retention period failed: Lanyard tries again later.' : '';
  return `The roster was applied (${countsSaid(result.run.counts)}).${purged}${failed}`;
}
