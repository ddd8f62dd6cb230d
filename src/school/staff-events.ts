import type { AuditKind } from '../../adapters/store.js';
import { actor, subject } from '../audit/audit-people.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { StaffMember } from './access.js';

/**
 * Something a member of staff did to their own account or sign-in (signed in to the console, turned two-step
 * sign-in on, made an API token), recorded in the audit trail of every school they work in: each school's
 * admins see what its staff's console accounts went through (docs/school-console.md → Signing in and your
 * account). Never a secret: a token's label and last characters at most.
 */
export function recordStaffEvent(
  audit: AuditRecorder, member: StaffMember, event: { kind: AuditKind; action: string; method?: string; detail?: Record<string, string> },
): void {
  for (const school of member.schools) {
    audit.record({
      organisationId: school.organisation.id,
      kind: event.kind,
      action: event.action,
      ...actor(member.user),
      ...subject(member.user),
      ...(event.method ? { method: event.method } : {}),
      ...(event.detail ? { detail: event.detail } : {}),
    });
  }
}
