import { createHash } from 'node:crypto';
import type { Plan } from './plan-types.js';

/**
 * What a person saw of a plan, as one hash (sha256, hex): per kind the records added, changed (field by field),
 * unchanged and leaving, and the errors other than the mass-removal guard's (those are what confirming the
 * removal lets through). Two plans with the same fingerprint do the same to the roster, so a plan confirmed in
 * the console is applied only while the store would still give it (docs/school-console.md → The roster).
 */
export function planFingerprint(plan: Pick<Plan, 'kinds' | 'errors' | 'massRemoval' | 'organisations'>): string {
  const guard = new Set(plan.massRemoval.map((e) => JSON.stringify(e)));
  const errors = plan.errors.filter((e) => !guard.has(JSON.stringify(e)));
  return createHash('sha256').update(JSON.stringify({ kinds: plan.kinds, errors, organisations: plan.organisations })).digest('hex');
}
