import type { User } from './directory.js';
import type { ClassSummary, Enrolment, Membership } from './roster.js';
import { byKeys } from './collation.js';

/**
 * The orders the roster's contract promises (adapters/store/roster.ts), the same on every backend: SQLite's
 * statements with a parameter may not sort (test/unit/adapters/sqlite-statements.test.ts), and Redis keeps
 * no order, so both sort here, as SQLite's ORDER BY would (collation.ts).
 */
export const ROSTER_ORDER = {
  classes: byKeys<{ title: string; sourcedId: string }>((c) => c.title, (c) => c.sourcedId),
  teachers: byKeys<{ primary: boolean; familyName: string; givenName: string; userId: string }>(
    (t) => (t.primary ? 0 : 1), (t) => t.familyName, (t) => t.givenName, (t) => t.userId),
  enrolments: byKeys<Enrolment>((e) => e.classId, (e) => e.userId),
  sessions: byKeys<{ startDate?: string | undefined; sourcedId: string }>((s) => s.startDate, (s) => s.sourcedId),
  memberships: byKeys<Membership>((m) => m.userId, (m) => m.organisationId, (m) => m.role),
  leavers: byKeys<User>((u) => u.rosterHoldSince, (u) => u.id),
};

/** The classes with their teachers (role teacher) and pupils (role student), by title then sourcedId. */
export function summariseClasses<C extends { id: string; title: string; sourcedId: string }>(
  classes: C[],
  teachers: { classId: string; userId: string; primary: boolean; givenName: string; familyName: string }[],
  pupilClassIds: Iterable<string>,
): (C & Pick<ClassSummary, 'teachers' | 'pupils'>)[] {
  const pupils = new Map<string, number>();
  for (const classId of pupilClassIds) pupils.set(classId, (pupils.get(classId) ?? 0) + 1);
  const teaching = new Map<string, typeof teachers>();
  for (const t of [...teachers].sort(ROSTER_ORDER.teachers)) teaching.set(t.classId, [...(teaching.get(t.classId) ?? []), t]);
  return classes.map((c) => ({
    ...c,
    teachers: (teaching.get(c.id) ?? []).map(({ userId, givenName, familyName }) => ({ userId, givenName, familyName })),
    pupils: pupils.get(c.id) ?? 0,
  })).sort(ROSTER_ORDER.classes);
}

