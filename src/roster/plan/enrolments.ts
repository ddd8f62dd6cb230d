import type { Enrolment, RosterChanges, RosterSnapshot } from '../../../adapters/store.js';
import type { RosterSource } from '../source.js';
import type { ClassPlan } from './classes.js';
import { byText, fieldChanges, sortKindPlan } from './fields.js';
import type { OrgMapping } from './organisations.js';
import { emptyKindPlan, type KindPlan, type PlanError } from './plan-types.js';
import type { UserPlan } from './users.js';

/**
 * Who is in which class, in which role: one enrolment per person and class. An enrolment must name a class
 * and a person that are in the files or already in Lanyard (with a bulk users file, in the files: everyone
 * is). A bulk enrollments file removes the enrolments it no longer lists, a delta those marked tobedeleted;
 * a leaver's enrolments go with them, and a removed class's with it (the store removes those). A
 * `tobedeleted` enrolment may name a class of a reached organisation (OrgMapping.reached); one that matches
 * no stored enrolment is a note.
 */

export interface EnrolmentPlan {
  plan: KindPlan;
  changes: RosterChanges['enrolments'];
  errors: PlanError[];
  notes: string[];
  /** Reached organisations (by id) whose enrolments this import removes. */
  touched: Set<string>;
}

const key = (classId: string, userId: string) => `${classId}\u0000${userId}`;

export function planEnrolments(source: RosterSource, snapshot: RosterSnapshot, orgs: OrgMapping, classes: ClassPlan, users: UserPlan): EnrolmentPlan {
  const plan = emptyKindPlan();
  const errors: PlanError[] = [];
  const notes: string[] = [];
  const changes: RosterChanges['enrolments'] = { put: [], remove: [] };
  const covered = new Map(orgs.covered.map((o) => [o.id, o]));
  const classOrg = new Map(snapshot.classes.filter((c) => covered.has(c.organisationId)).map((c) => [c.id, c.organisationId]));
  const stored = new Map<string, Enrolment>();
  // A reached organisation's classes: only a tobedeleted enrolment, or a leaver, removes enrolments there.
  const reached = new Map(orgs.reached.map((o) => [o.id, o]));
  const reachedClasses = snapshot.classes.filter((c) => reached.has(c.organisationId));
  const reachedTitles = new Map(reachedClasses.map((c) => [c.id, c.title]));
  for (const c of reachedClasses) classOrg.set(c.id, c.organisationId);
  const slugOf = (orgId: string) => covered.get(orgId)?.slug ?? reached.get(orgId)?.slug ?? '';
  const touched = new Set<string>();
  for (const e of snapshot.enrolments) if (classOrg.has(e.classId)) stored.set(key(e.classId, e.userId), e);
  const reachedClass = (sourcedId: string, orgId: string | undefined) =>
    reachedClasses.find((c) => c.sourcedId === sourcedId && (orgId === undefined || c.organisationId === orgId));
  let unmatched = 0;
  // From here on, also the classes the files add (for naming enrolments).
  const leavingSourcedIds = new Set(source.users.filter((u) => u.status === 'tobedeleted').map((u) => u.sourcedId));
  const listed = new Set<string>();
  const deleted = new Set<string>();
  const usersFile = source.users[0]?.at.file ?? 'users.csv';
  const classesFile = source.classes[0]?.at.file ?? 'classes.csv';
  let duplicates = 0;
  let leavers = 0;
  const nameOf = (e: { classId: string; userId: string }) => ({
    organisation: slugOf(classOrg.get(e.classId) ?? ''),
    name: `${users.usernames.get(e.userId) ?? e.userId} in ${classes.titles.get(e.classId) ?? reachedTitles.get(e.classId) ?? e.classId}`,
  });

  const bySourcedId = new Map<string, Enrolment[]>();
  for (const e of stored.values()) if (e.sourcedId) bySourcedId.set(e.sourcedId, [...(bySourcedId.get(e.sourcedId) ?? []), e]);

  for (const e of source.enrollments) {
    const at = { file: e.at.file, line: e.at.line };
    if (e.status === 'tobedeleted' && (!e.classSourcedId || !e.userSourcedId)) {
      // A minimal tobedeleted row (only its sourcedId) is the stored enrolment with that sourcedId.
      const found = bySourcedId.get(e.sourcedId) ?? [];
      for (const f of found) deleted.add(key(f.classId, f.userId));
      if (!found.length) unmatched += 1;
      continue;
    }
    const school = e.schoolSourcedId ? orgs.resolve(e.schoolSourcedId) : undefined;
    const cls = classes.find(e.classSourcedId, school?.id) ?? (e.status === 'tobedeleted' ? reachedClass(e.classSourcedId, school?.id) : undefined);
    if (!cls) {
      if (e.status === 'active') errors.push({ ...at, column: 'classSourcedId', value: e.classSourcedId, message: `names a class that is neither in ${classesFile} nor in Lanyard` });
      else unmatched += 1;
      continue;
    }
    classOrg.set(cls.id, cls.organisationId);
    let userId = users.idBySourcedId.get(e.userSourcedId);
    if (!userId) {
      const known = users.storedBySourceId.get(e.userSourcedId);
      if (e.status === 'tobedeleted') {
        const person = known ?? users.reachedBySourceId.get(e.userSourcedId);
        if (person && stored.has(key(cls.id, person.id))) deleted.add(key(cls.id, person.id));
        else unmatched += 1;
        continue;
      }
      const bulk = source.modes.users === 'bulk';
      if (leavingSourcedIds.has(e.userSourcedId) || (!bulk && known && (users.leaving.has(known.id) || known.rosterHold === 'left'))) {
        leavers += 1; // a leaver's enrolments go with them
        continue;
      }
      if (known && !bulk) userId = known.id;
      else {
        errors.push({
          ...at, column: 'userSourcedId', value: e.userSourcedId,
          message: known ? `names a person who is not in ${usersFile} (a bulk file lists everyone)` : `names a person who is neither in ${usersFile} nor in Lanyard`,
        });
        continue;
      }
    }
    const k = key(cls.id, userId);
    if (e.status === 'tobedeleted') {
      if (stored.has(k)) deleted.add(k);
      else unmatched += 1;
      continue;
    }
    if (listed.has(k)) {
      duplicates += 1;
      continue;
    }
    listed.add(k);
    const next: Enrolment = {
      classId: cls.id, userId, role: e.role, primary: e.primary, sourcedId: e.sourcedId, beginDate: e.beginDate, endDate: e.endDate,
    };
    const current = stored.get(k);
    if (!current) {
      plan.added.push(nameOf(next));
      changes.put.push(next);
      continue;
    }
    const fields = fieldChanges([
      ['role', current.role, next.role], ['primary', current.primary, next.primary], ['source_id', current.sourcedId, next.sourcedId],
      ['begin_date', current.beginDate, next.beginDate], ['end_date', current.endDate, next.endDate],
    ]);
    if (fields.length) {
      plan.changed.push({ ...nameOf(next), fields });
      changes.put.push(next);
    } else plan.unchanged += 1;
  }
  if (leavers) notes.push(`${leavers} enrolment(s) of people who leave (or left) were not added`);
  if (unmatched) notes.push(`${unmatched} enrolment(s) marked tobedeleted are not in Lanyard, nothing to do`);
  if (duplicates) notes.push(`${duplicates} enrolment(s) named a person in a class a second time: the first was kept`);

  for (const [k, e] of stored) {
    if (listed.has(k) && !users.leaving.has(e.userId)) continue;
    const inReached = reached.has(classOrg.get(e.classId) ?? '');
    const gone = classes.removed.has(e.classId) || users.leaving.has(e.userId) || (!inReached && source.modes.enrollments === 'bulk') || deleted.has(k);
    if (!gone) continue;
    if (inReached) touched.add(classOrg.get(e.classId)!);
    plan.leaving.push(nameOf(e));
    // A removed class's enrolments are removed with it.
    if (!classes.removed.has(e.classId)) changes.remove.push({ classId: e.classId, userId: e.userId });
  }
  changes.put.sort((a, b) => byText(a.classId, b.classId) || byText(a.userId, b.userId));
  changes.remove.sort((a, b) => byText(a.classId, b.classId) || byText(a.userId, b.userId));
  return { plan: sortKindPlan(plan), changes, errors, notes, touched };
}
