import { csrfField, field, flash, postButton, problemsSummary, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { fullName } from '../names.js';
import { STAFF_ROLES, type StaffRow } from '../staff-roles.js';
import { ROLE_NAMES, SOURCE_WORDS } from './person-admin-panel.js';
import { schoolPath } from './school-layout.js';

/**
 * The school's staff and their roles, for its admins (docs/school-console.md → People and staff): each
 * member of staff with their roles (and where each came from) and the classes the roster has them teach;
 * a role withdrawn here, or given to someone of the school by their username.
 */

export interface StaffPageOptions {
  slug: string;
  csrf: string;
  staff: StaffRow[];
  flash?: string | undefined;
  /** The grant form's refusal, and what was typed. */
  error?: { message: string; fields: { path: string; message: string }[] } | undefined;
  username?: string | undefined;
}

export function staffPageBody(o: StaffPageOptions): Raw {
  const person = (r: StaffRow) => schoolPath(o.slug, `/people/${encodeURIComponent(r.user.id)}`);
  const fieldError = (name: string) => o.error?.fields.find((f) => f.path === name)?.message;
  return html`<p><a href="${schoolPath(o.slug, '/people')}">People</a></p>
<h1>Staff and roles</h1>
${flash(o.flash)}
<p>School admins see and do everything for the school; teachers see their own classes. The roster makes teachers of the people it enrols as teachers in a class.</p>
${table<StaffRow>('The school\'s staff', [
    { heading: 'Name', cell: (r) => html`<a href="${person(r)}">${fullName(r.user)}</a>` },
    { heading: 'Username', cell: (r) => r.user.username },
    { heading: 'Roles', cell: (r) => html`<ul class="role-list">${r.grants.map((g) => html`<li>${ROLE_NAMES[g.role]} <span class="muted">${SOURCE_WORDS[g.source]}</span>
      ${postButton(schoolPath(o.slug, '/staff/revoke'), o.csrf, 'Withdraw', { remove: true, hidden: { user_id: r.user.id, role: g.role }, context: `${ROLE_NAMES[g.role]} from ${fullName(r.user)}` })}</li>`)}${
      r.teaches.length && !r.grants.some((g) => g.role === 'teacher') ? html`<li>Teacher <span class="muted">of their classes, from the roster</span></li>` : ''}</ul>` },
    { heading: 'Teaches', cell: (r) => r.teaches.join(', ') || '—' },
  ], o.staff, 'The school has no staff yet.')}
<section class="dev-section" aria-labelledby="grant-heading">
<h2 id="grant-heading">Give a role</h2>
${problemsSummary(o.error && !o.error.fields.length ? o.error.message : undefined, o.error?.fields ?? [])}
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
