import type { AuditEvent, ClassSummary, User } from '../../../adapters/store.js';
import type { SchoolAccess } from '../access.js';
import type { Usage } from '../audit/usage.js';
import { signIns } from '../audit/usage.js';
import type { PupilStatus } from '../pupil-status.js';

/**
 * /school/api's JSON for each record: snake_case, absent values left out (never null unless the schema says
 * so). These are the shapes of src/school/api/schemas.ts; the response serialiser drops anything not there.
 */

function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export const schoolJson = (s: SchoolAccess) => ({
  id: s.organisation.id,
  slug: s.organisation.slug,
  name: s.organisation.name,
  roles: [...(s.admin ? ['admin'] : []), ...(s.teaches.size || !s.admin ? ['teacher'] : [])],
});

export const classJson = (c: ClassSummary) => defined({
  id: c.id,
  sourced_id: c.sourcedId,
  title: c.title,
  teachers: c.teachers.map((t) => `${t.givenName} ${t.familyName}`.trim()),
  pupils: c.pupils,
});

export const pupilJson = (p: PupilStatus) => defined({
  id: p.user.id,
  username: p.user.username,
  given_name: p.user.givenName,
  family_name: p.user.familyName,
  methods: p.methods,
  locked: p.lockedMethods.length > 0,
  locked_methods: p.lockedMethods,
  suspended: p.suspended,
  roster_hold: p.rosterHold,
  last_sign_in: p.lastSignIn ?? null,
});

export const personJson = (u: User) => ({
  id: u.id, username: u.username, given_name: u.givenName, family_name: u.familyName, suspended: !!u.suspendedAt,
});

export const auditEventJson = (e: AuditEvent) => defined({
  id: e.id,
  at: e.at,
  kind: e.kind,
  action: e.action,
  actor_id: e.actorId,
  actor_name: e.actorName,
  subject_id: e.subjectId,
  subject_name: e.subjectName,
  method: e.method,
  device_kind: e.deviceKind,
  client_id: e.clientId,
  class_id: e.classId,
  result: e.result,
  source: e.source,
  count: e.count,
  detail: e.detail,
});

export const usageJson = (u: Usage) => ({
  from: u.from,
  to: u.to,
  days: u.days.map((d) => ({ day: d.day, sign_ins: signIns(d), sign_ins_by_method: d.signInsByMethod, by_app: d.byApp, failures: d.failures })),
  totals: { sign_ins: u.totals.signIns, sign_ins_by_method: u.totals.signInsByMethod, by_app: u.totals.byApp, failures: u.totals.failures },
});
