import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CsvWriter } from './csv-writer.js';
import { Random } from './random.js';

/**
 * A district's roster as a OneRoster 1.1 CSV export (manifest, orgs, academicSessions, courses, classes,
 * users, enrollments), made from its size and a seed alone: the same arguments write byte-identical files,
 * on any machine, streamed to disk (memory does not grow with the size). About 93 % of the users are
 * pupils, the rest teachers (one in 25 at two schools); every class has one or two teachers and an even
 * share, give or take a quarter, of the pupil enrolments, from its own school's pupils.
 *
 *   node --import tsx bench/roster/generate.ts OUTDIR --users 50000 --classes 2000 --enrollments 200000 [--schools 10] [--seed 1] [--changed N]
 */

export interface RosterShape {
  users: number;
  classes: number;
  enrollments: number;
  /** Schools in the district (default 10). */
  schools?: number | undefined;
  /** Default 1. */
  seed?: number | undefined;
  /**
   * Pupils whose family name differs from the roster of the same shape and seed (spread evenly; default 0):
   * the same district a night later, for re-import benches. Every other byte is the same.
   */
  changed?: number | undefined;
}

export interface GeneratedRoster {
  schools: number;
  pupils: number;
  teachers: number;
  users: number;
  classes: number;
  enrollments: number;
}

const PUPIL_SHARE = 0.93;
const GRADES = 6;
const GIVEN = ['Ada', 'Ben', 'Chloe', 'Dev', 'Emma', 'Finn', 'Grace', 'Hugo', 'Isla', 'Jack', 'Kai', 'Lena', 'Milo', 'Nora', 'Omar', 'Pia',
  'Quinn', 'Rosa', 'Sam', 'Tara', 'Uma', 'Vik', 'Wren', 'Xavi', 'Yara', 'Zoe', 'Alfie', 'Bea', 'Cal', 'Dina', 'Eli', 'Fay'];
const FAMILY = ['Lovelace', 'Okafor', 'Dubois', 'Patel', 'Schmidt', "O'Neil", 'Hopper', 'Martins', 'Nguyen', 'Kowalski', 'Tanaka', 'Berg',
  'Rossi', 'Haddad', 'Farouk', 'Jensen', 'Murphy', 'Garcia', 'Byrne', 'Singh', 'Novak', 'Rao', 'Ellis', 'Ruiz', 'Sato', 'Mueller'];

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const ascii = (name: string): string => name.toLowerCase().replace(/[^a-z]/g, '');

/** Where everyone is: pupils and teachers by school, deterministic from the shape. */
function layout(shape: Required<RosterShape>) {
  const { users, schools } = shape;
  const teachers = Math.max(schools, users - Math.round(users * PUPIL_SHARE));
  const pupils = users - teachers;
  if (pupils < schools) throw new Error(`${users} users are too few for ${schools} schools`);
  const teachersAt: number[][] = Array.from({ length: schools }, () => []);
  const schoolsOfTeacher = (t: number): number[] => (t % 25 === 12 && schools > 1 ? [t % schools, (t + 1) % schools] : [t % schools]);
  for (let t = 0; t < teachers; t++) for (const s of schoolsOfTeacher(t)) teachersAt[s]!.push(t);
  const pupilsAt = (s: number): number => Math.floor(pupils / schools) + (s < pupils % schools ? 1 : 0);
  return { teachers, pupils, teachersAt, schoolsOfTeacher, pupilsAt };
}

/** Writes the export into `dir` (created if need be). */
export async function generateRoster(dir: string, given: RosterShape): Promise<GeneratedRoster> {
  const shape: Required<RosterShape> = { schools: 10, seed: 1, changed: 0, ...given } as Required<RosterShape>;
  const { classes, enrollments, schools } = shape;
  if (classes < 1 || enrollments < classes) throw new Error('every class needs a teacher: at least one class, and as many enrolments as classes');
  const random = new Random(shape.seed);
  const { teachers, pupils, teachersAt, schoolsOfTeacher, pupilsAt } = layout(shape);
  const schoolId = (s: number) => `s${pad(s + 1, Math.max(2, String(schools).length))}`;
  const teacherId = (t: number) => `t${pad(t + 1, String(teachers).length)}`;
  const pupilId = (p: number) => `p${pad(p + 1, String(pupils).length)}`;
  const classId = (c: number) => `c${pad(c + 1, String(classes).length)}`;
  const coursesPerSchool = Math.min(GRADES, Math.ceil(classes / schools));
  const courseId = (s: number, g: number) => `crs-${schoolId(s)}-y${g + 1}`;
  // Enrolments: one or two teachers per class, the rest pupils, evenly shared give or take a quarter
  // (planned before anything is written, so a shape that cannot be fails first).
  const teachersOf = Array.from({ length: classes }, (_, c) => (random.next() < 0.5 && teachersAt[c % schools]!.length > 1 ? 2 : 1));
  let teacherEnrolments = teachersOf.reduce((a, b) => a + b, 0);
  if (teacherEnrolments > enrollments) {
    teachersOf.fill(1);
    teacherEnrolments = classes;
  }
  const pupilEnrolments = enrollments - teacherEnrolments;
  const base = Math.floor(pupilEnrolments / classes);
  const sizes = Array.from({ length: classes }, (_, c) => base + (c < pupilEnrolments % classes ? 1 : 0));
  for (let c = 0; c + 1 < classes; c += 2) {
    const d = random.below(Math.floor(base / 4) + 1);
    sizes[c]! += d;
    sizes[c + 1]! -= d;
  }
  for (let c = 0; c < classes; c++) {
    if (sizes[c]! > pupilsAt(c % schools)) throw new Error(`${enrollments} enrolments need more pupils than ${pupilsAt(c % schools)} at ${schoolId(c % schools)}`);
  }
  await mkdir(dir, { recursive: true });
  const file = (name: string, header: string[]) => new CsvWriter(join(dir, name), header);

  const manifest = file('manifest.csv', ['propertyName', 'value']);
  for (const row of [['manifest.version', '1.0'], ['oneroster.version', '1.1'], ['file.academicSessions', 'bulk'], ['file.categories', 'absent'],
    ['file.classes', 'bulk'], ['file.classResources', 'absent'], ['file.courseResources', 'absent'], ['file.courses', 'bulk'],
    ['file.demographics', 'absent'], ['file.enrollments', 'bulk'], ['file.lineItems', 'absent'], ['file.orgs', 'bulk'],
    ['file.resources', 'absent'], ['file.results', 'absent'], ['file.users', 'bulk'], ['source.systemName', 'Lanyard roster generator']]) {
    await manifest.row(row);
  }
  await manifest.close();

  const orgs = file('orgs.csv', ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId']);
  await orgs.row(['d1', '', '', 'Generated District', 'district', 'GD', '']);
  for (let s = 0; s < schools; s++) await orgs.row([schoolId(s), '', '', `School ${s + 1}, Generated District`, 'school', String(1000 + s), 'd1']);
  await orgs.close();

  const sessions = file('academicSessions.csv', ['sourcedId', 'status', 'dateLastModified', 'title', 'type', 'startDate', 'endDate', 'parentSourcedId', 'schoolYear']);
  await sessions.row(['y2025', '', '', '2024-2025', 'schoolYear', '2024-09-01', '2025-07-15', '', '2025']);
  await sessions.row(['t2025-1', '', '', 'Autumn and spring', 'term', '2024-09-01', '2025-03-31', 'y2025', '2025']);
  await sessions.row(['t2025-2', '', '', 'Summer', 'term', '2025-04-01', '2025-07-15', 'y2025', '2025']);
  await sessions.close();

  const courses = file('courses.csv', ['sourcedId', 'status', 'dateLastModified', 'schoolYearSourcedId', 'title', 'courseCode', 'grades', 'orgSourcedId', 'subjects', 'subjectCodes']);
  for (let s = 0; s < schools; s++) {
    for (let g = 0; g < coursesPerSchool; g++) await courses.row([courseId(s, g), '', '', 'y2025', `Year ${g + 1}`, `Y${g + 1}`, pad(g + 1, 2), schoolId(s), 'English,Mathematics', '']);
  }
  await courses.close();

  // Class c is at school c % schools, in year (c / schools) % coursesPerSchool.
  const cls = file('classes.csv', ['sourcedId', 'status', 'dateLastModified', 'title', 'grades', 'courseSourcedId', 'classCode', 'classType', 'location', 'schoolSourcedId', 'termSourcedIds', 'subjects', 'subjectCodes', 'periods']);
  for (let c = 0; c < classes; c++) {
    const s = c % schools;
    const g = Math.floor(c / schools) % coursesPerSchool;
    const group = Math.floor(c / (schools * coursesPerSchool)) + 1;
    await cls.row([classId(c), '', '', `Year ${g + 1}, group ${group}`, pad(g + 1, 2), courseId(s, g), `${g + 1}-${group}`, 'scheduled',
      `Room ${100 + random.below(200)}`, schoolId(s), 't2025-1,t2025-2', 'English,Mathematics', '', String(1 + random.below(6))]);
  }
  await cls.close();

  const users = file('users.csv', ['sourcedId', 'status', 'dateLastModified', 'enabledUser', 'orgSourcedIds', 'role', 'username', 'userIds', 'givenName', 'familyName', 'middleName', 'identifier', 'email', 'sms', 'phone', 'agentSourcedIds', 'grades', 'password']);
  const changeEvery = shape.changed > 0 ? Math.max(1, Math.floor(pupils / shape.changed)) : 0;
  for (let p = 0; p < pupils; p++) {
    const [givenName, born] = [random.pick(GIVEN), random.pick(FAMILY)];
    const familyName = changeEvery && p % changeEvery === 0 && p / changeEvery < shape.changed ? `${born}-Hale` : born;
    const username = `${ascii(givenName)}.${ascii(born)}${p + 1}`;
    const grade = pad(1 + (Math.floor(p / schools) % GRADES), 2);
    await users.row([pupilId(p), '', '', random.below(200) === 0 ? 'false' : 'true', schoolId(p % schools), 'student', username,
      `{SIS:${100000 + p}}`, givenName, familyName, '', String(100000 + p), '', '', '', '', grade, '']);
  }
  for (let t = 0; t < teachers; t++) {
    const [givenName, familyName] = [random.pick(GIVEN), random.pick(FAMILY)];
    const username = `${ascii(givenName[0]!)}.${ascii(familyName)}.t${t + 1}`;
    await users.row([teacherId(t), '', '', 'true', schoolsOfTeacher(t).map(schoolId).join(','), 'teacher', username, '', givenName, familyName,
      '', `T${t + 1}`, `${username}@generated.example`, '', '', '', '', '']);
  }
  await users.close();

  const enrol = file('enrollments.csv', ['sourcedId', 'status', 'dateLastModified', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role', 'primary', 'beginDate', 'endDate']);
  for (let c = 0; c < classes; c++) {
    const s = c % schools;
    const here = teachersAt[s]!;
    const first = random.pick(here);
    let second = first;
    while (teachersOf[c] === 2 && second === first) second = random.pick(here);
    for (const t of teachersOf[c] === 2 ? [first, second] : [first]) {
      await enrol.row([`e-${classId(c)}-${teacherId(t)}`, '', '', classId(c), schoolId(s), teacherId(t), 'teacher', t === first ? 'true' : 'false', '2024-09-01', '']);
    }
    const count = pupilsAt(s);
    const start = random.below(count);
    for (let i = 0; i < sizes[c]!; i++) {
      const p = s + schools * ((start + i) % count);
      await enrol.row([`e-${classId(c)}-${pupilId(p)}`, '', '', classId(c), schoolId(s), pupilId(p), 'student', 'false', '2024-09-01', '']);
    }
  }
  await enrol.close();
  return { schools, pupils, teachers, users: pupils + teachers, classes, enrollments };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { users: { type: 'string' }, classes: { type: 'string' }, enrollments: { type: 'string' }, schools: { type: 'string' }, seed: { type: 'string' }, changed: { type: 'string' } },
  });
  const number = (name: string, text: string | undefined, fallback?: number): number => {
    const n = text === undefined ? fallback : Number(text);
    if (n === undefined || !Number.isInteger(n) || n < 0) throw new Error(`--${name}: a whole number is needed`);
    return n;
  };
  const [out] = positionals;
  if (!out) {
    console.error('usage: node --import tsx bench/roster/generate.ts OUTDIR --users N --classes N --enrollments N [--schools 10] [--seed 1] [--changed N]');
    process.exit(64);
  }
  const made = await generateRoster(out, {
    users: number('users', values.users, 50_000), classes: number('classes', values.classes, 2_000), enrollments: number('enrollments', values.enrollments, 200_000),
    schools: number('schools', values.schools, 10), seed: number('seed', values.seed, 1), changed: number('changed', values.changed, 0),
  });
  console.log(`${out}: ${made.schools} schools, ${made.pupils} pupils, ${made.teachers} teachers, ${made.classes} classes, ${made.enrollments} enrolments`);
}
