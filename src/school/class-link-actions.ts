import type { ClassLink, RosterClass, User } from '../../adapters/store.js';
import { classLinkUntil, type ClassLinkLength } from '../accounts/class-link-length.js';
import { actor, personName } from '../audit/audit-people.js';
import { type ClassLinkAction, classLinkEvent } from '../audit/class-link-event.js';
import { schoolDaySettings } from '../config/school-day.js';
import { maySeeClass, type SchoolAccess } from './access.js';
import { type ActionVia, viaDetail } from './action-via.js';
import type { SchoolDeps } from './deps.js';
import { NotInSchoolError } from './errors.js';

/**
 * Class links as staff make them (docs/school-console.md → Class links): a teacher of the class or a school
 * admin (access.ts classOf decides, before any of these) makes a link that opens the class's name tiles on any
 * device until it ends, sees its code once, and sees and revokes the class's live links: on the console's pages,
 * and through /school/api (`via: api`). Both changes are in the audit trail, `class_link.created` and
 * `class_link.revoked`, never the code.
 */

/** A link just made: the record and its code (shown once, kept nowhere). */
export interface MadeClassLink {
  link: ClassLink;
  code: string;
}

/**
 * Makes a link for the class that works for one of the console's lengths (the school day's end by its rule:
 * class-link-length.ts), or until an instant (the API's `minutes` or `until`); the service caps it at a day and
 * refuses an end that is not in the future.
 */
export async function makeClassLink(
  deps: SchoolDeps, school: SchoolAccess, by: User, klass: RosterClass, ends: ClassLinkLength | Date, o: ActionVia = {},
): Promise<MadeClassLink> {
  if (!maySeeClass(school, klass.id)) throw new NotInSchoolError();
  const until = ends instanceof Date ? ends : classLinkUntil(ends, deps.clock.now(), schoolDaySettings(deps.config.file));
  const made = await deps.classLinks.create(school.organisation.id, klass.id, { id: by.id, username: by.username }, until);
  record(deps, by, klass, 'class_link.created', made.link, viaDetail(o, ends instanceof Date ? {} : { length: ends }));
  return made;
}

/** Revokes one of the class's live links; false when it has no such live link. */
export async function revokeClassLink(deps: SchoolDeps, school: SchoolAccess, by: User, klass: RosterClass, id: string, o: ActionVia = {}): Promise<boolean> {
  if (!maySeeClass(school, klass.id)) throw new NotInSchoolError();
  const link = await deps.classLinks.live(school.organisation.id, id);
  if (!link || link.classId !== klass.id) return false;
  const revoked = await deps.classLinks.revoke(school.organisation.id, id);
  if (revoked) record(deps, by, klass, 'class_link.revoked', link, viaDetail(o));
  return revoked;
}

/** A live link as the class page lists it. */
export interface ListedClassLink {
  id: string;
  madeBy: string;
  createdAt: Date;
  expiresAt: Date;
}

/** The class's live links, newest first, with who made each. */
export async function liveClassLinks(deps: SchoolDeps, school: SchoolAccess, klass: RosterClass): Promise<ListedClassLink[]> {
  if (!maySeeClass(school, klass.id)) throw new NotInSchoolError();
  const links = await deps.classLinks.list(school.organisation.id, klass.id);
  const names = new Map<string, Promise<string>>();
  const nameOf = (id: string, username: string) => {
    if (!names.has(id)) names.set(id, deps.store.findUser(id).then((u) => (u ? personName(u) : username)));
    return names.get(id)!;
  };
  return Promise.all(links.map(async (l) => ({
    id: l.id, madeBy: await nameOf(l.createdBy.id, l.createdBy.username), createdAt: new Date(l.createdAt), expiresAt: new Date(l.expiresAt),
  })));
}

function record(deps: SchoolDeps, by: User, klass: RosterClass, action: ClassLinkAction, link: ClassLink, extra: { detail?: Record<string, string> }): void {
  deps.audit.record(classLinkEvent(klass, action, link, actor(by), extra.detail));
}
