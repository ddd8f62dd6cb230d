import type { User } from '../../adapters/store.js';
import { OPERATOR, subject } from './audit-people.js';
import type { AuditInput } from './audit-recorder.js';

/**
 * A change to `user`'s credentials as the audit trail keeps it (`emoji.reset`, `password.set`, `badge.issued`,
 * `badge.voided`…), made by the operator (the command line) unless `by` says who. Never the credential.
 */
export const credentialChange = (user: User, action: string, by: Pick<AuditInput, 'actorId' | 'actorName'> = OPERATOR): AuditInput => ({
  organisationId: user.organisationId, kind: 'credential', action, ...by, ...subject(user),
});
