import type { UserListing } from '../../accounts/user-admin.js';
import { personName } from '../../audit/audit-people.js';
import { flash, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { type PeoplePage, QUERY_MAX } from '../people-search.js';
import { schoolPath } from './school-layout.js';

/**
 * The school's people for its admins (docs/school-console.md → People and staff): a search by name or
 * username (a GET form: the address can be kept), a page of results, each a link to the person's page.
 */

/** `active`, `suspended`, `left the school`, `disabled by the roster`. */
export function statusWord(u: Pick<UserListing, 'suspended' | 'rosterHold'>): string {
  if (u.suspended) return 'suspended';
  if (u.rosterHold === 'left') return 'left the school';
  if (u.rosterHold === 'disabled') return 'disabled by the roster';
  return 'active';
}

/** `password, emoji, badge`, or `none`. */
export const waysIn = (u: Pick<UserListing, 'credentials' | 'badge'>): string =>
  [...u.credentials, ...(u.badge ? ['badge'] : [])].join(', ') || 'none';

export function peoplePageBody(slug: string, found: PeoplePage, o: { flash?: string | undefined } = {}): Raw {
  const base = schoolPath(slug, '/people');
  const pageHref = (page: number) => `${base}?${new URLSearchParams({ ...(found.query ? { q: found.query } : {}), page: String(page) })}`;
  const said = found.query ? `${found.total} ${found.total === 1 ? 'person matches' : 'people match'} “${found.query}”` : `${found.total} ${found.total === 1 ? 'person' : 'people'}`;
  return html`<h1>People</h1>
${flash(o.flash)}
<p>Everyone of the school, and the members of its classes from other schools of the district. <a href="${schoolPath(slug, '/staff')}">Staff and their roles</a></p>
<form method="get" action="${base}" class="dev-form" role="search">
<div class="field">
  <label for="f-q">Name or username</label>
  <input id="f-q" name="q" type="search" value="${found.query}" maxlength="${QUERY_MAX}" autocomplete="off">
</div>
<div class="form-actions"><button type="submit">Search</button></div>
</form>
<p role="status">${said}${found.pages > 1 ? ` · page ${found.page} of ${found.pages}` : ''}</p>
${table<UserListing>('People found', [
    { heading: 'Name', cell: (u) => html`<a href="${schoolPath(slug, `/people/${encodeURIComponent(u.id)}`)}">${personName(u)}</a>` },
    { heading: 'Username', cell: (u) => u.username },
    { heading: 'Type', cell: (u) => u.type },
    { heading: 'Classes', cell: (u) => u.classes.join(', ') || '—' },
    { heading: 'Signs in with', cell: (u) => waysIn(u) },
    { heading: 'Status', cell: (u) => statusWord(u) },
  ], found.people, found.query ? 'Nobody matches this search.' : 'The school has nobody yet: bring in its roster.')}
${found.pages > 1 ? html`<nav class="pager" aria-label="Pages of people">
  ${found.page > 1 ? html`<a href="${pageHref(found.page - 1)}" rel="prev">Previous page</a>` : ''}
  ${found.page < found.pages ? html`<a href="${pageHref(found.page + 1)}" rel="next">Next page</a>` : ''}
</nav>` : ''}`;
}
