import { randomBytes } from 'node:crypto';

let lastMs = -1;
let sequence = 0;

/**
 * A new event's id (adapters/store/audit.ts AuditEvent.id): `a`, the time in milliseconds (9 base-36 digits,
 * until the year 5188), a count within the millisecond (4), and 10 random hex digits. Ids sort as their times
 * do, and within one process as they were made; the random part keeps two processes' apart.
 */
export function newAuditId(ms: number): string {
  if (ms === lastMs) sequence += 1;
  else {
    lastMs = ms;
    sequence = 0;
  }
  return `a${Math.max(0, Math.floor(ms)).toString(36).padStart(9, '0')}${(sequence % 36 ** 4).toString(36).padStart(4, '0')}${randomBytes(5).toString('hex')}`;
}
