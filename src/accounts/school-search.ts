import type { Organisation, Store } from '../../adapters/store.js';
import { SANDBOX_SLUG } from '../config/reserved.js';

/** The longest search kept, and the most schools listed. */
const QUERY_MAX_LENGTH = 100;
const RESULTS_MAX = 20;

/** What a school search asked for: trimmed and capped ('' when none). */
export const schoolQuery = (q: unknown): string => (typeof q === 'string' ? q.trim().slice(0, QUERY_MAX_LENGTH) : '');

/**
 * The schools a picker lists for a search (the front door's and the sign-in screens'). The sandbox school
 * is for developers' apps in development (they go straight to it): never offered to pupils.
 */
export async function findSchools(store: Pick<Store, 'searchOrganisations'>, query: string): Promise<Organisation[]> {
  if (!query) return [];
  return (await store.searchOrganisations(query, RESULTS_MAX + 1)).filter((o) => o.slug !== SANDBOX_SLUG).slice(0, RESULTS_MAX);
}
