import type { RosterClass, User } from '../../../adapters/store.js';
import type { OrgRef } from './organisations.js';
import type { PlanError } from './plan-types.js';

/**
 * The mass-removal guard (docs/rostering.md → The mass-removal guard): a truncated or wrong export must not
 * empty a school. The plan is refused, one error per organisation and kind with its counts, unless the operator
 * confirmed it (--allow-mass-removal), when in one organisation more than `percent`
 * - of its roster-managed users (those with a sourcedId, not already left) would leave;
 * - of those users would be newly held `disabled` (enabledUser false): as good as leaving, for a day at school;
 * - of its classes would be removed (a truncated classes file, or a delta removing most of them).
 */

export interface MassChanges {
  /** Users who leave with this import. */
  leaving: ReadonlySet<string>;
  /** Users newly held `disabled` by this import. */
  disabling: ReadonlySet<string>;
  /** Stored classes this import removes. */
  removedClasses: ReadonlySet<string>;
}

export interface GuardOptions { percent: number; allowed: boolean; usersFile: string; classesFile: string }

export function massRemovalErrors(
  stored: { users: readonly User[]; classes: readonly RosterClass[] }, changes: MassChanges, covered: readonly OrgRef[], o: GuardOptions,
): PlanError[] {
  if (o.allowed) return [];
  const managed = new Map<string, number>();
  const leavers = new Map<string, number>();
  const disabled = new Map<string, number>();
  const classes = new Map<string, number>();
  const removed = new Map<string, number>();
  const add = (counts: Map<string, number>, orgId: string) => counts.set(orgId, (counts.get(orgId) ?? 0) + 1);
  for (const u of stored.users) {
    if (!u.sourceId || u.rosterHold === 'left') continue;
    add(managed, u.organisationId);
    if (changes.leaving.has(u.id)) add(leavers, u.organisationId);
    if (changes.disabling.has(u.id)) add(disabled, u.organisationId);
  }
  for (const c of stored.classes) {
    add(classes, c.organisationId);
    if (changes.removedClasses.has(c.id)) add(removed, c.organisationId);
  }
  const errors: PlanError[] = [];
  const share = (n: number, of: number) => `${Math.round((n * 1000) / of) / 10} %, more than the ${o.percent} % allowed`;
  const check = (org: OrgRef, n: number, of: number, file: string, message: (pct: string) => string) => {
    if (n && n * 100 > o.percent * of) errors.push({ file, line: 0, column: '', message: message(share(n, of)) });
  };
  for (const org of covered) {
    const of = managed.get(org.id) ?? 0;
    const n = leavers.get(org.id) ?? 0;
    check(org, n, of, o.usersFile, (pct) => `${n} of the ${of} roster-managed users of ${org.slug} would leave (${pct}): `
      + 'is the export complete? If they really left, import again with --allow-mass-removal');
    const d = disabled.get(org.id) ?? 0;
    check(org, d, of, o.usersFile, (pct) => `${d} of the ${of} roster-managed users of ${org.slug} would be disabled (enabledUser false; ${pct}): `
      + 'is the export right? If they really may not sign in, import again with --allow-mass-removal');
    const ofClasses = classes.get(org.id) ?? 0;
    const r = removed.get(org.id) ?? 0;
    check(org, r, ofClasses, o.classesFile, (pct) => `${r} of the ${ofClasses} classes of ${org.slug} would be removed (${pct}): `
      + 'is the classes file complete? If they really ended, import again with --allow-mass-removal');
  }
  return errors;
}
