import type { StoredClient } from '../../adapters/store.js';
import type { SchoolAccess, StaffMember } from './access.js';
import type { SchoolDeps } from './deps.js';
import { fullName } from './names.js';

/**
 * The audit trail's record of a change to the school's apps (docs/school-console.md → Apps): `app.connected`,
 * `app.disconnected`, `app.user_types_changed`, `app.moved`, `app.request_approved`, `app.request_declined`,
 * with the app and the admin who made it.
 */
export function recordAppChange(deps: SchoolDeps, s: { member: StaffMember; school: SchoolAccess }, action: string,
  client: Pick<StoredClient, 'clientId' | 'name'>, detail: Record<string, string> = {}): void {
  deps.audit.record({
    organisationId: s.school.organisation.id, kind: 'console', action,
    actorId: s.member.user.id, actorName: fullName(s.member.user),
    clientId: client.clientId, detail: { app: client.name, ...detail },
  });
}
