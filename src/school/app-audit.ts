import type { StoredClient } from '../../adapters/store.js';
import { actor } from '../audit/audit-people.js';
import type { SchoolAccess, StaffMember } from './access.js';
import { type ActionVia, viaDetail } from './action-via.js';
import type { SchoolDeps } from './deps.js';

/** A school admin changing the school's apps, in the console or through /school/api (`via`). */
export interface AppActing extends ActionVia {
  member: StaffMember;
  school: SchoolAccess;
}

/**
 * The audit trail's record of a change to the school's apps (docs/school-console.md → Apps): `app.connected`,
 * `app.disconnected`, `app.user_types_changed`, `app.moved`, `app.request_approved`, `app.request_declined`,
 * with the app and the admin who made it.
 */
export function recordAppChange(deps: SchoolDeps, s: AppActing, action: string,
  client: Pick<StoredClient, 'clientId' | 'name'>, detail: Record<string, string> = {}): void {
  deps.audit.record({
    organisationId: s.school.organisation.id, kind: 'console', action,
    ...actor(s.member.user),
    clientId: client.clientId, ...viaDetail(s, { app: client.name, ...detail }),
  });
}
