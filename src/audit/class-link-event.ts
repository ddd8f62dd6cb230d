import type { ClassLink, RosterClass } from '../../adapters/store.js';
import type { AuditInput } from './audit-recorder.js';

/** What the audit trail says of a class link: made, or revoked before its end. */
export type ClassLinkAction = 'class_link.created' | 'class_link.revoked';

/**
 * A class link made or revoked, as the audit trail keeps it (docs/school-console.md → Class links), whoever
 * did it: a member of staff in the console or through /school/api (`via: api` in `detail`), or the command
 * line. The class, the link's id and until when; never the code.
 */
export const classLinkEvent = (
  klass: Pick<RosterClass, 'id' | 'organisationId' | 'title'>, action: ClassLinkAction, link: ClassLink,
  by: Pick<AuditInput, 'actorId' | 'actorName'>, detail: Record<string, string> = {},
): AuditInput => ({
  organisationId: klass.organisationId, kind: 'console', action, ...by, classId: klass.id,
  detail: { class: klass.title, link: link.id, expiresAt: link.expiresAt, ...detail },
});
