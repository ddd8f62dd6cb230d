import type { User } from '../../../adapters/store.js';
import type { OrgRef } from './organisations.js';
import type { PlanError } from './plan-types.js';

/**
 * The mass-removal guard (docs/rostering.md → The mass-removal guard): a truncated or wrong export must not
 * empty a school. When an organisation's leavers are more than `percent` of its roster-managed users (those
 * with a sourcedId, not already left), the plan is refused, one error per organisation with its counts,
 * unless the operator confirmed it (--allow-mass-removal).
 */
export function massRemovalErrors(
  stored: readonly User[], leaving: ReadonlySet<string>, covered: readonly OrgRef[], o: { percent: number; allowed: boolean; file: string },
): PlanError[] {
  if (o.allowed || !leaving.size) return [];
  const managed = new Map<string, number>();
  const leavers = new Map<string, number>();
  for (const u of stored) {
    if (!u.sourceId || u.rosterHold === 'left') continue;
    managed.set(u.organisationId, (managed.get(u.organisationId) ?? 0) + 1);
    if (leaving.has(u.id)) leavers.set(u.organisationId, (leavers.get(u.organisationId) ?? 0) + 1);
  }
  const errors: PlanError[] = [];
  for (const org of covered) {
    const n = leavers.get(org.id) ?? 0;
    const of = managed.get(org.id) ?? 0;
    if (!n || n * 100 <= o.percent * of) continue;
    errors.push({
      file: o.file, line: 0, column: '',
      message: `${n} of the ${of} roster-managed users of ${org.slug} would leave (${Math.round((n * 1000) / of) / 10} %, more than the ${o.percent} % allowed): `
        + 'is the export complete? If they really left, import again with --allow-mass-removal',
    });
  }
  return errors;
}
