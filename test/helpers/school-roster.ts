import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { User } from '../../adapters/store.js';
import type { HttpBrowser } from './http-browser.js';
import { hiddenField } from './http-browser.js';
import { writeExport, zipFolder } from './roster-files.js';
import type { ConsoleSchool } from './school-console.js';

/**
 * A school's roster as its information system would export it for the console's upload (docs/school-console.md
 * → The roster): a OneRoster 1.1 zip of the school made by putConsoleSchool — its two classes and their pupils
 * as the store holds them (the same sourcedIds), with changes asked for — and the upload form posted as a browser
 * posts it (multipart/form-data).
 */

export interface ExportChanges {
  /** Pupils (usernames) left out: they leave. */
  drop?: string[];
  /** A pupil's (username) new family name. */
  rename?: Record<string, string>;
  /** New pupils, in class A or B. */
  add?: { username: string; given: string; family: string; klass: 'a' | 'b' }[];
  /** Rows added to users.csv as they are (a broken row). */
  usersRows?: string[];
  /** Teachers the roster enrols, in class A or B (as `teacher`). */
  teachers?: { username: string; given: string; family: string; klass: 'a' | 'b' }[];
}

const MANIFEST = `propertyName,value
manifest.version,1.0
oneroster.version,1.1
file.academicSessions,absent
file.categories,absent
file.classes,bulk
file.classResources,absent
file.courseResources,absent
file.courses,absent
file.demographics,absent
file.enrollments,bulk
file.lineItems,absent
file.orgs,bulk
file.resources,absent
file.results,absent
file.users,bulk
`;
const USERS = 'sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password';
const CLASSES = 'sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods';
const ENROLMENTS = 'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate';

/** The school's export with `changes`, zipped into `dir` as `<name>.zip`; returns the zip's path. */
export async function schoolExportZip(dir: string, name: string, school: ConsoleSchool, changes: ExportChanges = {}): Promise<string> {
  const slug = school.organisation.slug;
  const org = `${slug}-org`;
  const pupils: { user: Pick<User, 'username' | 'givenName' | 'familyName'> & { sourceId: string }; klass: string }[] = [
    ...school.taught.pupils.map((u) => ({ user: { ...u, sourceId: u.sourceId! }, klass: school.taught.class.sourcedId })),
    ...school.other.pupils.map((u) => ({ user: { ...u, sourceId: u.sourceId! }, klass: school.other.class.sourcedId })),
    ...(changes.add ?? []).map((p) => ({
      user: { username: p.username, givenName: p.given, familyName: p.family, sourceId: `${slug}-new-${p.username}` },
      klass: p.klass === 'a' ? school.taught.class.sourcedId : school.other.class.sourcedId,
    })),
  ].filter((p) => !changes.drop?.includes(p.user.username));
  const users = pupils.map(({ user: u }) =>
    `${u.sourceId},,,true,${org},student,${u.username},,${u.givenName},"${changes.rename?.[u.username] ?? u.familyName}",,,,,,,,`);
  const teachers = (changes.teachers ?? []).map((p) => ({
    ...p, sourceId: `${slug}-teacher-${p.username}`, klass: p.klass === 'a' ? school.taught.class.sourcedId : school.other.class.sourcedId,
  }));
  users.push(...teachers.map((p) => `${p.sourceId},,,true,${org},teacher,${p.username},,${p.given},"${p.family}",,,,,,,,`));
  const enrolments = [
    ...pupils.map((p) => `e-${p.user.sourceId},,,${p.klass},${org},${p.user.sourceId},student,false,,`),
    ...teachers.map((p) => `e-${p.sourceId},,,${p.klass},${org},${p.sourceId},teacher,true,,`),
  ];
  const folder = writeExport(dir, name, {
    'manifest.csv': MANIFEST,
    'orgs.csv': `sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\n${org},,,${school.organisation.name},school,,\n`,
    'classes.csv': `${CLASSES}\n${[school.taught.class, school.other.class].map((c) => `${c.sourcedId},,,${c.title},,,,homeroom,,${org},,,,`).join('\n')}\n`,
    'users.csv': `${USERS}\n${[...users, ...(changes.usersRows ?? [])].join('\n')}\n`,
    'enrollments.csv': `${ENROLMENTS}\n${enrolments.join('\n')}\n`,
  });
  return zipFolder(folder, join(dir, `${name}.zip`));
}

/** Posts the roster page's upload form with `file` (its CSRF token from `page`), as a browser does. */
export async function uploadRoster(browser: HttpBrowser, url: string, slug: string, page: string, file: string, name = basename(file)): Promise<Response> {
  const form = new FormData();
  form.set('csrf', hiddenField(page, 'csrf'));
  form.set('file', new Blob([readFileSync(file)]), name);
  return browser.request(`${url}/school/${slug}/roster`, { method: 'POST', body: form });
}
