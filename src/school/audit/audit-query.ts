import type { AuditFilter, AuditKind } from '../../../adapters/store.js';
import { SchoolInputError } from '../errors.js';
import { type AuditPosition, decodeCursor } from './audit-cursor.js';
import { addDays, isDay, startOf } from './days.js';

/**
 * What someone asks of a school's audit trail (docs/school-console.md → Audit and usage), as the page's form
 * and /school/api's query parameters give it: days (from/to, UTC, both included), a person (searched by name
 * or username, or one user id), a class (its people), an app (client_id), a kind, and the page (`before`).
 */
export interface AuditQueryInput {
  from?: string | undefined;
  to?: string | undefined;
  person?: string | undefined;
  userId?: string | undefined;
  classId?: string | undefined;
  app?: string | undefined;
  kind?: string | undefined;
  before?: string | undefined;
}

/** The query checked: every field either absent or valid (the kind one of AUDIT_KINDS, the page a decoded position). */
export type AuditQuery = Omit<AuditQueryInput, 'kind' | 'before'> & {
  kind?: AuditKind | undefined;
  before?: AuditPosition | undefined;
};

export const AUDIT_KINDS: readonly AuditKind[] = ['sign_in', 'sign_in_failed', 'launch', 'credential', 'import', 'console'];

/** The longest text a filter field takes (a name, a username, an id). */
export const FILTER_MAX_LENGTH = 200;

const given = (v: string | undefined): string | undefined => {
  const t = v?.trim();
  return t ? t : undefined;
};

/** The query, or a SchoolInputError naming each refused field (the form shows it beside the field). */
export function parseAuditQuery(input: AuditQueryInput): AuditQuery {
  const problems: { path: string; message: string }[] = [];
  const text = (name: keyof AuditQueryInput, path: string): string | undefined => {
    const v = given(input[name]);
    if (v !== undefined && [...v].length > FILTER_MAX_LENGTH) problems.push({ path, message: `at most ${FILTER_MAX_LENGTH} characters` });
    return v;
  };
  const day = (name: 'from' | 'to'): string | undefined => {
    const v = given(input[name]);
    if (v !== undefined && !isDay(v)) problems.push({ path: name, message: 'a day written YYYY-MM-DD' });
    return v;
  };
  const from = day('from');
  const to = day('to');
  if (from && to && isDay(from) && isDay(to) && from > to) problems.push({ path: 'to', message: 'the last day comes before the first' });
  const kind = given(input.kind);
  if (kind !== undefined && !AUDIT_KINDS.includes(kind as AuditKind)) problems.push({ path: 'kind', message: `one of ${AUDIT_KINDS.join(', ')}` });
  const cursor = given(input.before);
  const before = cursor === undefined ? undefined : decodeCursor(cursor);
  if (cursor !== undefined && !before) problems.push({ path: 'before', message: 'not a page of this list: start again from the first page' });
  const query: AuditQuery = {
    from, to, person: text('person', 'person'), userId: text('userId', 'user_id'), classId: text('classId', 'class_id'), app: text('app', 'app'),
    kind: kind as AuditKind | undefined, before,
  };
  if (problems.length) throw new SchoolInputError(problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  return query;
}

/** The store's filter for a query whose people are known (undefined: anyone). */
export function storeFilter(organisationId: string, query: AuditQuery, userIds: string[] | undefined, limit: number): AuditFilter {
  return {
    organisationId,
    from: query.from ? startOf(query.from) : undefined,
    // `to` names the last day shown: the filter's end is the next day's start.
    to: query.to ? startOf(addDays(query.to, 1)) : undefined,
    kinds: query.kind ? [query.kind] : undefined,
    userIds,
    clientId: query.app,
    before: query.before,
    limit,
  };
}

/** The query as URL parameters (for the page's links: the next page, the CSV of the same filters). */
export function queryParams(query: AuditQuery, o: { before?: string } = {}): URLSearchParams {
  const params = new URLSearchParams();
  const add = (name: string, v: string | undefined) => { if (v) params.set(name, v); };
  add('from', query.from);
  add('to', query.to);
  add('person', query.person);
  add('user_id', query.userId);
  add('class_id', query.classId);
  add('app', query.app);
  add('kind', query.kind);
  add('before', o.before);
  return params;
}
