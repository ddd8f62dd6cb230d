import type { User } from '../../adapters/store.js';
import type { AuditInput } from './audit-recorder.js';

/**
 * Who did something and whom it concerned, as an event keeps them: the id, and the name at the time (a later
 * rename or deletion does not rewrite history; adapters/store/audit.ts).
 */

/**
 * How a person is named, in the trail and on every page that shows people: given and family name, or the
 * username when both are empty.
 */
export const personName = (u: Pick<User, 'givenName' | 'familyName' | 'username'>): string =>
  `${u.givenName} ${u.familyName}`.trim() || u.username;

export const actor = (u: User): Pick<AuditInput, 'actorId' | 'actorName'> => ({ actorId: u.id, actorName: personName(u) });

export const subject = (u: User): Pick<AuditInput, 'subjectId' | 'subjectName'> => ({ subjectId: u.id, subjectName: personName(u) });

/** The command line: whoever runs `lanyard` on the server. */
export const OPERATOR: Pick<AuditInput, 'actorId' | 'actorName'> = { actorId: 'operator', actorName: 'operator' };
