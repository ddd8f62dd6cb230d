import type { AuditKind, User } from '../../adapters/store.js';
import { actor, subject } from '../audit/audit-people.js';
import type { SchoolAccess } from './access.js';
import type { SchoolDeps } from './deps.js';

/**
 * The audit trail's record of something a member of staff did to one person in the console
 * (docs/school-console.md → People and staff, Helping a pupil, Help codes): who did it and whom it concerned,
 * named as every event names people (src/audit/audit-people.ts), the class when it was done for one, and what
 * else is worth keeping — never a secret.
 */
export function recordPersonChange(
  deps: Pick<SchoolDeps, 'audit'>, school: SchoolAccess, by: User, person: User, kind: AuditKind, action: string,
  o: { detail?: Record<string, string> | undefined; classId?: string | undefined } = {},
): void {
  deps.audit.record({
    organisationId: school.organisation.id, kind, action, ...actor(by), ...subject(person),
    ...(o.classId ? { classId: o.classId } : {}), ...(o.detail ? { detail: o.detail } : {}),
  });
}
