import type { Organisation, Store, User } from '../../adapters/store.js';
import { listUsers, type UserListing } from '../accounts/user-admin.js';

/**
 * Finding people of a school in the console (docs/school-console.md → People and staff): by name or username,
 * every word of the query in one of them, accents and case aside; the school's own users and the members of its
 * classes whose own school is another one of the district; PAGE_SIZE to a page, by username.
 */

export const PAGE_SIZE = 50;
/** The longest query taken (characters). */
export const QUERY_MAX = 100;

export interface PeoplePage {
  query: string;
  people: UserListing[];
  /** How many matched in all. */
  total: number;
  /** 1-based, within 1..pages. */
  page: number;
  pages: number;
}

/** Lower case, without accents (é → e, ł stays ł), for matching. */
const folded = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** What a search asked for: trimmed and capped ('' when none, or not one text). */
export const searchQuery = (q: unknown): string => (typeof q === 'string' ? q.trim().slice(0, QUERY_MAX) : '');

/** Whether a person answers the query: each of its words is in their username, given or family name (an empty query: everyone). */
export function matchesQuery(u: Pick<User, 'username' | 'givenName' | 'familyName'>, query: string): boolean {
  const words = folded(searchQuery(query)).split(/\s+/).filter(Boolean);
  const text = folded(`${u.username} ${u.givenName} ${u.familyName}`);
  return words.every((w) => text.includes(w));
}

/** Everyone of the school the query finds (all of them for an empty query), by username. */
export async function matchPeople(store: Store, organisation: Organisation, query: string): Promise<UserListing[]> {
  const everyone = await listUsers(store, organisation, { withMembers: true });
  return everyone.filter((u) => matchesQuery(u, query));
}

export async function searchPeople(store: Store, organisation: Organisation, query: string, page: number): Promise<PeoplePage> {
  const q = query.trim().slice(0, QUERY_MAX);
  const matched = await matchPeople(store, organisation, q);
  const pages = Math.max(1, Math.ceil(matched.length / PAGE_SIZE));
  const at = Math.min(Math.max(1, Number.isSafeInteger(page) ? page : 1), pages);
  return { query: q, people: matched.slice((at - 1) * PAGE_SIZE, at * PAGE_SIZE), total: matched.length, page: at, pages };
}
