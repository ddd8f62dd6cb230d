import type { SourceAcademicSession, SourceClass, SourceCourse, SourceOrg } from '../source.js';
import type { KindSpec } from './kind-reader.js';
import { dateOf, termOf } from './kind-reader.js';
import { ORG_TYPES, SESSION_TYPES } from './oneroster-vocabulary.js';
import { parseList } from './values.js';

/**
 * orgs.csv, academicSessions.csv, courses.csv and classes.csv (OneRoster 1.1 and 1.2 alike): sourcedId,
 * status, dateLastModified, then each kind's columns. Lists within a field are comma separated. Only what
 * Lanyard needs is required; the rest of OneRoster's required columns may be empty.
 */

/** orgs.csv: name, type, identifier, parentSourcedId (a parent is not checked: it may be outside the export). */
export const ORGS: KindSpec<SourceOrg> = {
  required: ['name', 'type'],
  build: (row, base) => ({
    sourcedId: base.sourcedId, status: base.status, modifiedAt: base.modifiedAt, at: base.at,
    name: row.get('name') ?? '',
    type: (termOf(row, 'type', ORG_TYPES, 'an org type') ?? '').toLowerCase(),
    identifier: row.get('identifier'),
    parentSourcedId: row.get('parentSourcedId'),
  }),
};

/** academicSessions.csv: title, type, startDate, endDate, parentSourcedId, schoolYear. */
export const ACADEMIC_SESSIONS: KindSpec<SourceAcademicSession> = {
  required: ['title', 'type'],
  build: (row, base, ctx) => {
    const schoolYear = row.get('schoolYear');
    if (schoolYear !== undefined && !/^\d{4}$/.test(schoolYear)) row.problem('schoolYear', 'not a year (YYYY)', schoolYear);
    const session: SourceAcademicSession = {
      sourcedId: base.sourcedId, status: base.status, modifiedAt: base.modifiedAt, at: base.at,
      title: row.get('title') ?? '',
      type: termOf(row, 'type', SESSION_TYPES, 'a session type') ?? '',
      startDate: dateOf(row, 'startDate', ctx),
      endDate: dateOf(row, 'endDate', ctx),
      parentSourcedId: row.get('parentSourcedId'),
      schoolYear,
    };
    if (session.startDate && session.endDate && session.endDate < session.startDate) {
      row.problem('endDate', `before the startDate (${session.startDate})`, session.endDate);
    }
    return session;
  },
};

/** courses.csv: title, courseCode, grades, orgSourcedId, subjects (schoolYearSourcedId, subjectCodes not read). */
export const COURSES: KindSpec<SourceCourse> = {
  required: ['title'],
  build: (row, base, ctx) => {
    const org = row.get('orgSourcedId');
    return {
      sourcedId: base.sourcedId, status: base.status, modifiedAt: base.modifiedAt, at: base.at,
      title: row.get('title') ?? '',
      courseCode: row.get('courseCode'),
      orgSourcedId: org === undefined ? undefined : ctx.refer(row, 'orgs', 'orgSourcedId', org),
      grades: parseList(row.get('grades'), /,/, ctx.keep),
      subjects: parseList(row.get('subjects'), /,/, ctx.keep),
    };
  },
};

/**
 * classes.csv: title, grades, courseSourcedId, classCode, classType, location, schoolSourcedId,
 * termSourcedIds, subjects, periods (subjectCodes not read).
 */
export const CLASSES: KindSpec<SourceClass> = {
  required: ['title', 'schoolSourcedId'],
  build: (row, base, ctx) => {
    const school = row.get('schoolSourcedId');
    const course = row.get('courseSourcedId');
    return {
      sourcedId: base.sourcedId, status: base.status, modifiedAt: base.modifiedAt, at: base.at,
      title: row.get('title') ?? '',
      classCode: row.get('classCode'),
      classType: row.get('classType'),
      location: row.get('location'),
      courseSourcedId: course === undefined ? undefined : ctx.refer(row, 'courses', 'courseSourcedId', course),
      schoolSourcedId: school === undefined ? '' : ctx.refer(row, 'orgs', 'schoolSourcedId', school),
      termSourcedIds: parseList(row.get('termSourcedIds'), /,/, (id) => ctx.refer(row, 'academicSessions', 'termSourcedIds', id)),
      grades: parseList(row.get('grades'), /,/, ctx.keep),
      subjects: parseList(row.get('subjects'), /,/, ctx.keep),
      periods: parseList(row.get('periods'), /,/, ctx.keep),
    };
  },
};
