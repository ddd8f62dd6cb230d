import type { Readable } from 'node:stream';
import type { ReadProgress, RosterSource, SourceClass, SourceEnrollment, SourceUser } from '../source.js';
import type { Row, TableReader } from './csv-table.js';
import { readTable } from './csv-table.js';
import { exportDigest } from './digest.js';
import { NAME_MAX, USER_TYPE, USER_TYPE_RULE, USERNAME, USERNAME_RULE } from './lanyard-fields.js';
import type { ReadLimits } from './limits.js';
import type { Problems } from './problems.js';
import { parseList } from './values.js';

/**
 * The one-file CSV, for a school without an information system: one row per person, for one organisation
 * (given by the caller: `--org`). Columns, by header name (any case, any order; docs/rostering.md → Formats):
 * `username`, `given_name`, `family_name` (required); `type` (student, teacher, employee, admin…; default
 * student); `class` (class titles separated by `;`); `email`; `roster_id`; `id` (a stable id, default the
 * username); `grades` (separated by `;` or `,`). Classes are made from the distinct `class` titles.
 */
export const ONE_FILE_COLUMNS = ['username', 'given_name', 'family_name', 'type', 'class', 'email', 'roster_id', 'id', 'grades'] as const;
const REQUIRED = ['username', 'given_name', 'family_name'];

/** OneRoster roles a `type` is already one of (1.1's RoleType); `admin` is an administrator. */
const ROLE_TYPES = new Set(['student', 'teacher', 'administrator', 'aide', 'guardian', 'parent', 'proctor', 'relative']);

/**
 * The person's OneRoster role at the school, from their type: the type itself when it is one of OneRoster's
 * roles, administrator for `admin`; any other type (employee, staff…) teaches when they have a class, and is
 * otherwise an administrator (staff who are not teaching).
 */
export function roleOfType(type: string, hasClass: boolean): string {
  if (ROLE_TYPES.has(type)) return type;
  if (type === 'admin') return 'administrator';
  return hasClass ? 'teacher' : 'administrator';
}

/** Roles of a pupil's family: in a class they are neither taught nor teach (OneRoster 1.1 enrols them as such). */
const FAMILY_ROLES = new Set(['guardian', 'parent', 'relative']);

/**
 * A person's role in their classes: a student is a student, a guardian, parent or relative is enrolled as that
 * (never as a teacher: they do not see the class's pupils as a teacher does), anyone else teaches.
 */
export function enrolmentRoleOf(role: string): string {
  if (role === 'student' || FAMILY_ROLES.has(role)) return role;
  return 'teacher';
}

/** A class's stable sourcedId from its title: `class:` and the title in lower case, spaces collapsed. */
export const classIdOf = (title: string): string => `class:${title.normalize('NFC').toLowerCase().replace(/\s+/g, ' ')}`;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface OneFileRecords {
  users: SourceUser[];
  classes: SourceClass[];
  enrollments: SourceEnrollment[];
  /** Whether the header has a `class` column. */
  hasClass: boolean;
}

/** Reads the rows into users, classes and enrolments (all active, all at `org`). */
function oneFileReader(org: string, out: OneFileRecords, notes: string[]): TableReader {
  const usernames = new Map<string, number>();
  const ids = new Map<string, number>();
  const classes = new Map<string, SourceClass>();
  return {
    header(names: string[], problems: Problems, file: string): boolean {
      const lower = names.map((n) => n.toLowerCase());
      const unknown = names.filter((n, i) => n !== '' && !(ONE_FILE_COLUMNS as readonly string[]).includes(lower[i]!));
      if (unknown.length > 0) notes.push(`${file}: column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} not read (the columns are ${ONE_FILE_COLUMNS.join(', ')})`);
      out.hasClass = lower.includes('class');
      const missing = REQUIRED.filter((c) => !lower.includes(c));
      for (const column of missing) problems.add(file, 1, column, `the header has no column ${column} (a one-file CSV needs ${REQUIRED.join(', ')})`);
      return missing.length === 0;
    },
    row(row: Row): void {
      for (const column of REQUIRED) if (row.get(column) === undefined) row.problem(column, 'empty: this column is required');
      const username = row.get('username') ?? '';
      if (username !== '' && !USERNAME.test(username)) row.problem('username', `not a username Lanyard takes (${USERNAME_RULE})`, username);
      const sameName = usernames.get(username);
      if (username !== '' && sameName !== undefined) return row.problem('username', `line ${sameName} has the same username`, username);
      const sourcedId = row.get('id') ?? username;
      const sameId = ids.get(sourcedId);
      if (sourcedId !== '' && sameId !== undefined) return row.problem('id', `line ${sameId} has the same id`, sourcedId);
      usernames.set(username, row.line);
      ids.set(sourcedId, row.line);
      const typeText = row.get('type');
      const type = typeText?.toLowerCase() ?? 'student';
      if (!USER_TYPE.test(type)) row.problem('type', `not a user type (${USER_TYPE_RULE}: student, teacher, employee, admin…)`, typeText);
      const email = row.get('email');
      if (email !== undefined && !EMAIL.test(email)) row.problem('email', 'not an email address', email);
      for (const column of ['given_name', 'family_name']) {
        if ((row.get(column)?.length ?? 0) > NAME_MAX) row.problem(column, `longer than ${NAME_MAX} characters`);
      }
      const at = { file: row.file, line: row.line };
      const titles = parseList(row.get('class'), /;/);
      const classIds = [...new Set(titles.map((title) => {
        const id = classIdOf(title);
        if (!classes.has(id)) {
          const cls: SourceClass = {
            sourcedId: id, status: 'active', modifiedAt: undefined, at, title, classCode: undefined, classType: undefined,
            location: undefined, courseSourcedId: undefined, schoolSourcedId: org, termSourcedIds: [], grades: [], subjects: [], periods: [],
          };
          classes.set(id, cls);
          out.classes.push(cls);
        }
        return id;
      }))];
      const role = roleOfType(type, classIds.length > 0);
      const roster = row.get('roster_id');
      out.users.push({
        sourcedId, status: 'active', modifiedAt: undefined, at, username,
        givenName: row.get('given_name') ?? '', familyName: row.get('family_name') ?? '', middleName: undefined,
        email, identifier: undefined, enabled: true,
        roles: [{ orgSourcedId: org, role, primary: true }],
        grades: parseList(row.get('grades'), /[;,]/),
        extra: roster === undefined ? {} : { roster_id: roster },
        type,
      });
      for (const classSourcedId of classIds) {
        out.enrollments.push({
          sourcedId: `${classSourcedId}/${sourcedId}`, status: 'active', modifiedAt: undefined, at, classSourcedId, schoolSourcedId: org,
          userSourcedId: sourcedId, role: enrolmentRoleOf(role), primary: false, beginDate: undefined, endDate: undefined,
        });
      }
    },
  };
}

/**
 * Reads a one-file CSV for the organisation `org`. Users are bulk (the file is the school's whole list);
 * classes and enrolments are bulk too when the file has a `class` column, and absent (not spoken of) when
 * it has none. Organisations, sessions and courses are absent.
 */
export async function readOneFile(
  input: Readable, file: string, org: string, o: { problems: Problems; limits: ReadLimits; progress?: ReadProgress | undefined },
): Promise<RosterSource> {
  const out: OneFileRecords = { users: [], classes: [], enrollments: [], hasClass: false };
  const notes: string[] = [];
  const read = await readTable(input, oneFileReader(org, out, notes), {
    problems: o.problems, progress: o.progress, file, maxBytes: o.limits.fileBytes, maxRecordChars: o.limits.recordChars, lowerCaseColumns: true,
  });
  const classMode = out.hasClass ? 'bulk' : 'absent';
  return {
    format: 'one-file',
    modes: { orgs: 'absent', academicSessions: 'absent', courses: 'absent', classes: classMode, users: 'bulk', enrollments: classMode },
    orgs: [], academicSessions: [], courses: [], users: out.users, classes: out.classes, enrollments: out.enrollments,
    notes,
    errors: o.problems.list(),
    digest: exportDigest(new Map([[file, read.sha256]])),
  };
}
