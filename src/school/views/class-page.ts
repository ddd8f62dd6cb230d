import type { RosterClass } from '../../../adapters/store.js';
import { personName } from '../../audit/audit-people.js';
import { field, flash, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { when } from '../../web/instants.js';
import type { StaffSignedIn } from '../area.js';
import type { ClassApp } from '../class-apps.js';
import { personPath } from '../person-view.js';
import { PUPIL_ACTIONS } from '../pupil-actions.js';
import type { PupilStatus } from '../pupil-status.js';
import { statusWord } from './people-page.js';
import { ACTION_WORDS, classPath, lockedText } from './pupil-parts.js';
import { type PageSchool, schoolLayout, schoolPath } from './school-layout.js';

export interface ClassPageData {
  who: StaffSignedIn;
  school: PageSchool;
  klass: RosterClass;
  teachers: string[];
  /** How many pupils the class has (all of them, whatever the search shows). */
  total: number;
  query: string;
  /** The pupils the search shows (all when there is none). */
  pupils: PupilStatus[];
  apps: ClassApp[];
  /** The class-link panel (views/class-link-pages.ts): live links and the form that makes one. */
  classLinks: Raw;
  flash?: string | undefined;
}

/**
 * A class (docs/school-console.md → Your classes): its pupils with their sign-in methods, locks and last
 * sign-ins, a search by name, and one form to choose pupils (or the whole class) for an action. The form asks
 * for the action's confirmation page (a GET: nothing changes until it is confirmed there), so it needs no
 * JavaScript and no token.
 */
export function classPage(d: ClassPageData): string {
  const slug = d.school.organisation.slug;
  const title = d.klass.title;
  const body = html`<div class="school-page">
<p class="app-back"><a href="${schoolPath(slug)}">← Classes</a></p>
<h1>${title}</h1>
<p class="muted">${d.teachers.length ? `Taught by ${d.teachers.join(', ')} · ` : ''}${d.total === 1 ? '1 pupil' : `${d.total} pupils`}</p>
${flash(d.flash)}
${d.total ? search(d) : ''}
${d.total ? chooser(d) : html`<p class="empty-state">This class has no pupils yet.</p>`}
${appsSection(d.apps, d.total)}
${d.classLinks}
</div>`;
  return schoolLayout(title, body, d.who, d.school, 'classes');
}

/** The search by name: a GET form, answered by the server. */
function search(d: ClassPageData): Raw {
  const shown = d.query ? html`<p role="status" class="search-result">${d.pupils.length === 1 ? '1 pupil' : `${d.pupils.length} pupils`} of ${d.total} ${d.pupils.length === 1 ? 'matches' : 'match'} “${d.query}”. <a href="${classPath(d.school.organisation.slug, d.klass)}">Show everyone</a></p>` : '';
  return html`<form method="get" action="${classPath(d.school.organisation.slug, d.klass)}" role="search" class="search-form">
  ${field({ name: 'q', label: 'Find a pupil by name', type: 'search', value: d.query, autocomplete: 'off', maxlength: 100 })}
  <button type="submit" class="secondary-button">Search</button>
</form>
${shown}`;
}

/** The pupils, each with a box to tick, the whole class as one more, and a button per action. */
function chooser(d: ClassPageData): Raw {
  const slug = d.school.organisation.slug;
  const rows = table<PupilStatus>(`Pupils of ${d.klass.title}`, [
    {
      heading: 'Pupil',
      cell: (p) => html`<span class="pick"><input type="checkbox" name="pupil" value="${p.user.id}" id="pick-${p.user.id}" aria-label="Choose ${personName(p.user)}">
<a href="${personPath(slug, p.user.id)}">${personName(p.user)}</a></span>`,
    },
    { heading: 'Username', cell: (p) => html`<code>${p.user.username}</code>` },
    { heading: 'Sign-in methods', cell: (p) => (p.methods.length ? p.methods.join(', ') : html`<span class="muted">none</span>`) },
    { heading: 'Locked', cell: (p) => lockedText(p.lockedMethods) },
    { heading: 'Last sign-in', cell: (p) => when(p.lastSignIn) },
    { heading: 'Account', cell: (p) => account(p) },
  ], d.pupils, 'No pupil of this class matches that name.');
  return html`<form method="get" action="${classPath(slug, d.klass, '/confirm')}" class="pupil-chooser">
<fieldset>
  <legend>Choose pupils</legend>
  <p class="hint">Tick pupils in the list, or the whole class, then choose what to do. You confirm on the next page.</p>
  <div class="check">
    <input type="checkbox" name="whole" value="1" id="pick-whole">
    <label for="pick-whole">The whole class (${d.total === 1 ? '1 pupil' : `all ${d.total} pupils`}${d.query ? ', not only those shown' : ''})</label>
  </div>
  ${rows}
</fieldset>
<div class="form-actions action-buttons">
  ${PUPIL_ACTIONS.map((a) => html`<button type="submit" name="action" value="${a}" class="secondary-button">${ACTION_WORDS[a].button}</button>`)}
</div>
</form>`;
}

/** Whether they may sign in: `active`, or why not, marked. */
function account(p: PupilStatus): Raw {
  const word = statusWord({ suspended: p.suspended, rosterHold: p.rosterHold ?? null });
  return word === 'active' ? html`${word}` : html`<span class="status-badge status-held">${word}</span>`;
}

/** The apps the class's pupils find on their dashboards. */
function appsSection(apps: ClassApp[], total: number): Raw {
  return html`<section class="dev-section" aria-labelledby="class-apps">
<h2 id="class-apps">Apps on the class's dashboard</h2>
${apps.length ? html`<ul class="class-apps">${apps.map((a) => html`<li><span class="app-card-name">${a.client.name}</span>${a.pupils < total ? html` <span class="muted">(for ${a.pupils} of the ${total} pupils)</span>` : ''}</li>`)}</ul>`
    : html`<p class="empty-state">No app is on these pupils' dashboards yet: your school's admin chooses the school's apps.</p>`}
</section>`;
}
