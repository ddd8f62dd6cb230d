import type { RosterChanges, RosterClass, RosterSnapshot } from '../../../adapters/store.js';
import type { RosterSource, SourceCourse } from '../source.js';
import type { SessionPlan } from './academic-sessions.js';
import { byText, fieldChanges, idKey, sortKindPlan } from './fields.js';
import type { OrgMapping } from './organisations.js';
import { emptyKindPlan, type KindPlan, type PlanContext, type PlanError } from './plan-types.js';

/**
 * Classes, keyed by sourcedId within their school. A class takes its course's title and code from the
 * courses file; when the export has no courses file (or a delta without that course) the stored ones are
 * kept. A bulk classes file removes the classes it no longer lists, a delta those marked tobedeleted;
 * removing a class removes its enrolments (the store does it).
 */

export interface ClassRef { id: string; organisationId: string; title: string }

export interface ClassPlan {
  plan: KindPlan;
  changes: RosterChanges['classes'];
  errors: PlanError[];
  /** A class as it is after the import, by sourcedId (within a school when the enrolment names one). */
  find(classSourcedId: string, organisationId: string | undefined): ClassRef | undefined;
  /** Stored classes this import removes, by id. */
  removed: Set<string>;
  /** Every class's title (stored and planned), by id. */
  titles: Map<string, string>;
}

export function planClasses(source: RosterSource, snapshot: RosterSnapshot, orgs: OrgMapping, sessions: SessionPlan, context: PlanContext): ClassPlan {
  const plan = emptyKindPlan();
  const errors: PlanError[] = [];
  const changes: RosterChanges['classes'] = { put: [], remove: [] };
  const covered = new Map(orgs.covered.map((o) => [o.id, o]));
  const stored = new Map(snapshot.classes.filter((c) => covered.has(c.organisationId)).map((c) => [idKey(c.organisationId, c.sourcedId), c]));
  const courses = new Map<string, SourceCourse>(source.courses.filter((c) => c.status === 'active').map((c) => [c.sourcedId, c]));
  const after = new Map<string, ClassRef[]>();
  const titles = new Map<string, string>();
  const listed = new Set<string>();
  const deleted = new Set<string>();
  const keep = (c: ClassRef, sourcedId: string) => {
    titles.set(c.id, c.title);
    const list = after.get(sourcedId);
    if (list) list.push(c);
    else after.set(sourcedId, [c]);
  };

  for (const c of source.classes) {
    const org = orgs.resolve(c.schoolSourcedId);
    if (!org) {
      errors.push({ file: c.at.file, line: c.at.line, column: 'schoolSourcedId', value: c.schoolSourcedId, message: 'names a school that is neither in this export nor in Lanyard' });
      continue;
    }
    const key = idKey(org.id, c.sourcedId);
    if (c.status === 'tobedeleted') {
      deleted.add(key);
      continue;
    }
    if (listed.has(key)) {
      errors.push({ file: c.at.file, line: c.at.line, column: 'sourcedId', value: c.sourcedId, message: 'a second class with this sourcedId in its school' });
      continue;
    }
    listed.add(key);
    for (const term of c.termSourcedIds) {
      if (!sessions.has(org.id, term)) {
        errors.push({ file: c.at.file, line: c.at.line, column: 'termSourcedIds', value: term, message: 'names an academic session that is neither in this export nor in Lanyard' });
      }
    }
    const current = stored.get(key);
    const course = c.courseSourcedId ? courses.get(c.courseSourcedId) : undefined;
    const sameCourse = current?.courseSourcedId === c.courseSourcedId;
    if (c.courseSourcedId && !course && source.modes.courses === 'bulk') {
      errors.push({ file: c.at.file, line: c.at.line, column: 'courseSourcedId', value: c.courseSourcedId, message: 'names a course that is not in the courses file' });
    }
    const next: RosterClass = {
      id: current?.id ?? context.newId('c'), organisationId: org.id, sourcedId: c.sourcedId, title: c.title, classCode: c.classCode,
      classType: c.classType, courseSourcedId: c.courseSourcedId,
      courseTitle: course ? course.title : sameCourse && c.courseSourcedId ? current?.courseTitle : undefined,
      courseCode: course ? course.courseCode : sameCourse && c.courseSourcedId ? current?.courseCode : undefined,
      location: c.location, grades: c.grades, subjects: c.subjects, periods: c.periods, academicSessionIds: c.termSourcedIds,
    };
    keep(next, c.sourcedId);
    const name = { organisation: org.slug, name: c.title };
    if (!current) {
      plan.added.push(name);
      changes.put.push(next);
      continue;
    }
    const fields = fieldChanges([
      ['title', current.title, next.title], ['class_code', current.classCode, next.classCode], ['class_type', current.classType, next.classType],
      ['course', current.courseSourcedId, next.courseSourcedId], ['course_title', current.courseTitle, next.courseTitle],
      ['course_code', current.courseCode, next.courseCode], ['location', current.location, next.location], ['grades', current.grades, next.grades],
      ['subjects', current.subjects, next.subjects], ['periods', current.periods, next.periods], ['terms', current.academicSessionIds, next.academicSessionIds],
    ]);
    if (fields.length) {
      plan.changed.push({ ...name, fields });
      changes.put.push(next);
    } else plan.unchanged += 1;
  }

  const removed = new Set<string>();
  for (const [key, c] of stored) {
    if (listed.has(key)) continue;
    const gone = source.modes.classes === 'bulk' || deleted.has(key);
    if (!gone) {
      keep(c, c.sourcedId);
      continue;
    }
    titles.set(c.id, c.title);
    removed.add(c.id);
    changes.remove.push(c.id);
    plan.leaving.push({ organisation: covered.get(c.organisationId)!.slug, name: c.title });
  }
  changes.put.sort((a, b) => byText(a.organisationId, b.organisationId) || byText(a.sourcedId, b.sourcedId));
  changes.remove.sort(byText);
  const find = (sourcedId: string, organisationId: string | undefined) => {
    const list = after.get(sourcedId);
    return organisationId ? list?.find((c) => c.organisationId === organisationId) : list?.length === 1 ? list[0] : undefined;
  };
  return { plan: sortKindPlan(plan), changes, errors, find, removed, titles };
}
