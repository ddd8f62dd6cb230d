import type { AuditEvent, Store } from '../../../adapters/store.js';
import type { SchoolAccess } from '../access.js';
import { encodeCursor } from './audit-cursor.js';
import { auditPeople, type FoundPerson } from './audit-people.js';
import { type AuditQuery, storeFilter } from './audit-query.js';

/**
 * One page of a school's audit trail, newest first (docs/school-console.md → Audit and usage), as the console's
 * page, its CSV export and /school/api read it: the events, and the cursor of the next page when there is one.
 */
export interface AuditPage {
  events: AuditEvent[];
  /** The `before` of the next (older) page; undefined on the last. */
  next?: string | undefined;
  /** The people a name search found. */
  found?: FoundPerson[] | undefined;
}

export async function auditPage(store: Store, school: SchoolAccess, query: AuditQuery, limit: number): Promise<AuditPage> {
  const { userIds, found } = await auditPeople(store, school, query);
  // Nobody matched (a search that found no one, a class without people): nothing, without asking the store.
  if (userIds?.length === 0) return { events: [], found };
  const events = await store.queryAudit(storeFilter(school.organisation.id, query, userIds, limit + 1));
  const shown = events.slice(0, limit);
  const last = shown.at(-1);
  return { events: shown, next: events.length > limit && last ? encodeCursor(last) : undefined, found };
}

/**
 * Every page of the query, in turn (the CSV export streams them): the people are resolved once, and each page
 * starts before the last event of the one before.
 */
export async function* auditPages(store: Store, school: SchoolAccess, query: AuditQuery, pageSize: number): AsyncGenerator<AuditEvent[]> {
  const { userIds } = await auditPeople(store, school, query);
  if (userIds?.length === 0) return;
  let before = query.before;
  for (;;) {
    const events = await store.queryAudit(storeFilter(school.organisation.id, { ...query, before }, userIds, pageSize));
    if (events.length) yield events;
    if (events.length < pageSize) return;
    const last = events.at(-1)!;
    before = { at: last.at, id: last.id };
  }
}
