import type { AcademicSession, RosterChanges, RosterSnapshot } from '../../../adapters/store.js';
import type { RosterSource } from '../source.js';
import { byText, fieldChanges, idKey, sortKindPlan } from './fields.js';
import type { OrgRef } from './organisations.js';
import { emptyKindPlan, type KindPlan, type PlanContext } from './plan-types.js';

/**
 * School years and terms. OneRoster's academic sessions belong to no school, so each organisation the import
 * covers gets them all, keyed by sourcedId. A bulk file removes the sessions it no longer lists; a delta
 * removes those marked tobedeleted.
 */

export interface SessionPlan {
  plan: KindPlan;
  changes: RosterChanges['academicSessions'];
  /** Whether a session (by sourcedId) exists in an organisation after the import. */
  has(organisationId: string, sourcedId: string): boolean;
}

export function planAcademicSessions(source: RosterSource, snapshot: RosterSnapshot, covered: OrgRef[], context: PlanContext): SessionPlan {
  const plan = emptyKindPlan();
  const changes: RosterChanges['academicSessions'] = { put: [], remove: [] };
  const mode = source.modes.academicSessions;
  const coveredIds = new Map(covered.map((o) => [o.id, o]));
  const stored = new Map(snapshot.academicSessions.filter((s) => coveredIds.has(s.organisationId)).map((s) => [idKey(s.organisationId, s.sourcedId), s]));
  const after = new Set(stored.keys());
  const listed = new Set<string>();
  const active = source.academicSessions.filter((s) => s.status === 'active');
  const deleted = new Set(source.academicSessions.filter((s) => s.status === 'tobedeleted').map((s) => s.sourcedId));
  for (const org of covered) {
    for (const s of mode === 'absent' ? [] : active) {
      const key = idKey(org.id, s.sourcedId);
      if (listed.has(key)) continue;
      listed.add(key);
      after.add(key);
      const current = stored.get(key);
      const next: AcademicSession = {
        id: current?.id ?? context.newId('a'), organisationId: org.id, sourcedId: s.sourcedId, title: s.title, type: s.type,
        startDate: s.startDate, endDate: s.endDate, parentSourcedId: s.parentSourcedId, schoolYear: s.schoolYear,
      };
      const name = { organisation: org.slug, name: s.title };
      if (!current) {
        plan.added.push(name);
        changes.put.push(next);
        continue;
      }
      const fields = fieldChanges([
        ['title', current.title, next.title], ['type', current.type, next.type], ['start_date', current.startDate, next.startDate],
        ['end_date', current.endDate, next.endDate], ['parent', current.parentSourcedId, next.parentSourcedId],
        ['school_year', current.schoolYear, next.schoolYear],
      ]);
      if (fields.length) {
        plan.changed.push({ ...name, fields });
        changes.put.push(next);
      } else plan.unchanged += 1;
    }
  }
  for (const [key, s] of stored) {
    const gone = mode === 'bulk' ? !listed.has(key) : deleted.has(s.sourcedId) && !listed.has(key);
    if (!gone) continue;
    after.delete(key);
    changes.remove.push(s.id);
    plan.leaving.push({ organisation: coveredIds.get(s.organisationId)!.slug, name: s.title });
  }
  changes.put.sort((a, b) => byText(a.organisationId, b.organisationId) || byText(a.sourcedId, b.sourcedId));
  changes.remove.sort(byText);
  return { plan: sortKindPlan(plan), changes, has: (org, id) => after.has(idKey(org, id)) };
}
