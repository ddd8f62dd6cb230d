import type { SourceEnrollment } from '../source.js';
import type { KindSpec } from './kind-reader.js';
import { dateOf, termOf } from './kind-reader.js';
import { enrollmentRoles, type OneRosterVersion } from './oneroster-vocabulary.js';
import { parseBoolean } from './values.js';

/**
 * enrollments.csv: classSourcedId, schoolSourcedId, userSourcedId, role, primary, beginDate, endDate. The
 * class, user and school must be in this export when their files are bulk (read-context.ts → refer).
 */
export function enrollmentsSpec(version: OneRosterVersion): KindSpec<SourceEnrollment> {
  const roles = enrollmentRoles(version);
  return {
    required: ['classSourcedId', 'userSourcedId', 'role'],
    build(row, base, ctx) {
      const cls = row.get('classSourcedId');
      const user = row.get('userSourcedId');
      const school = row.get('schoolSourcedId');
      const primaryText = row.get('primary');
      const primary = primaryText === undefined ? false : parseBoolean(primaryText);
      if (primary === undefined) row.problem('primary', 'must be true or false', primaryText);
      const enrollment: SourceEnrollment = {
        sourcedId: base.sourcedId, status: base.status, modifiedAt: base.modifiedAt, at: base.at,
        classSourcedId: cls === undefined ? '' : ctx.refer(row, 'classes', 'classSourcedId', cls),
        schoolSourcedId: school === undefined ? undefined : ctx.refer(row, 'orgs', 'schoolSourcedId', school),
        userSourcedId: user === undefined ? '' : ctx.refer(row, 'users', 'userSourcedId', user),
        role: termOf(row, 'role', roles, `a OneRoster ${version} enrollment role`) ?? '',
        primary: primary ?? false,
        beginDate: dateOf(row, 'beginDate', ctx),
        endDate: dateOf(row, 'endDate', ctx),
      };
      if (enrollment.beginDate && enrollment.endDate && enrollment.endDate < enrollment.beginDate) {
        row.problem('endDate', `before the beginDate (${enrollment.beginDate})`, enrollment.endDate);
      }
      return enrollment;
    },
  };
}
