import type { HeldRole, StaffPerson } from '../../accounts/school-staff.js';
import { personName } from '../../audit/audit-people.js';
import { csrfField, field, flash, postButton, problemsSummary, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { STAFF_ROLES } from '../staff-roles.js';
import { ROLE_NAMES, SOURCE_WORDS } from './person-admin-panel.js';
import { schoolPath } from './school-layout.js';

/**
 * The school's staff and their roles, for its admins (docs/school-console.md → People and staff): each
 * member of staff with their roles (and where each came from), the classes the roster has them teach, and
 * whether they sign in in two steps; a role withdrawn here, or given to someone of the school by username.
 */

export interface StaffPageOptions {
  slug: string;
  csrf: string;
  staff: StaffPerson[];
  /** The school's classes by id, for the titles of those taught. */
  classTitles: ReadonlyMap<string, string>;
  flash?: string | undefined;
  /** The grant form's refusal, and what was typed. */
  error?: { message: string; fields: { path: string; message: string }[] } | undefined;
  username?: string | undefined;
}

export function staffPageBody(o: StaffPageOptions): Raw {
  const person = (p: StaffPerson) => schoolPath(o.slug, `/people/${encodeURIComponent(p.user.id)}`);
  const fieldError = (name: string) => o.error?.fields.find((f) => f.path === name)?.message;
  const role = (p: StaffPerson, r: HeldRole) => (r.source === 'classes'
    ? html`<li>${ROLE_NAMES[r.role]} <span class="muted">of their classes, from the roster</span></li>`
    : html`<li>${ROLE_NAMES[r.role]} <span class="muted">${SOURCE_WORDS[r.source]}</span>
      ${postButton(schoolPath(o.slug, '/staff/revoke'), o.csrf, 'Withdraw', { remove: true, hidden: { user_id: p.user.id, role: r.role }, context: `${ROLE_NAMES[r.role]} from ${personName(p.user)}` })}</li>`);
  const teaches = (p: StaffPerson) => p.roles.filter((r) => r.source === 'classes').flatMap((r) => r.classIds ?? [])
    .map((id) => o.classTitles.get(id)).filter((t): t is string => !!t);
  return html`<p><a href="${schoolPath(o.slug, '/people')}">People</a></p>
<h1>Staff and roles</h1>
${flash(o.flash)}
<p>School admins see and do everything for the school; teachers see their own classes. The roster makes teachers of the people it enrols as teachers in a class.</p>
${errorAbove(o)}
${table<StaffPerson>('The school\'s staff', [
    { heading: 'Name', cell: (p) => html`<a href="${person(p)}">${personName(p.user)}</a>` },
    { heading: 'Username', cell: (p) => p.user.username },
    { heading: 'Roles', cell: (p) => html`<ul class="role-list">${p.roles.map((r) => role(p, r))}</ul>` },
    { heading: 'Teaches', cell: (p) => teaches(p).join(', ') || '—' },
    { heading: 'Two\u2011step sign\u2011in', cell: (p) => (p.twoStep ? 'on' : 'off') },
  ], o.staff, 'The school has no staff yet.')}
<section class="dev-section" aria-labelledby="grant-heading">
<h2 id="grant-heading">Give a role</h2>
${problemsSummary(undefined, o.error?.fields ?? [])}
<form method="post" action="${schoolPath(o.slug, '/staff')}" class="dev-form">
${csrfField(o.csrf)}
${field({ name: 'username', label: 'Their username', value: o.username, required: true, autocomplete: 'off', error: fieldError('username'), hint: 'Someone of this school. Find others on the People page.' })}
<div class="field">
  <label for="f-role">Role</label>
  <select id="f-role" name="role">${STAFF_ROLES.map((r) => html`<option value="${r}">${ROLE_NAMES[r]}</option>`)}</select>
</div>
<div class="form-actions"><button type="submit">Give the role</button></div>
</form>
</section>`;
}

/** A refusal that is not the grant form's (withdrawing the last admin's own role): above the staff. */
const errorAbove = (o: StaffPageOptions): Raw | '' =>
  (o.error && !o.error.fields.length ? html`<p class="error" role="alert" id="form-error">${o.error.message}</p>` : '');
