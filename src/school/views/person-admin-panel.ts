import type { StaffGrant, StaffGrantSource, StaffRole, User } from '../../../adapters/store.js';
import { emojiGlyph } from '../../formats/emoji-bank.js';
import { copyable, csrfField, field, postButton, problemsSummary } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { STAFF_ROLES } from '../staff-roles.js';
import { paperChoice } from './pupil-parts.js';
import { utcTime } from './roster-words.js';

/**
 * What only a school admin may do to a person, as a panel of the person's page (docs/school-console.md →
 * People and staff): new sign-in credentials (emoji pictures or a password, shown once; or a password typed
 * twice), suspend or restore, and the person's staff roles in the school.
 */

export const ROLE_NAMES: Record<StaffRole, string> = { admin: 'School admin', teacher: 'Teacher' };

/** Where a grant came from, as the console says it. */
export const SOURCE_WORDS: Record<StaffGrantSource, string> = {
  roster: 'from the roster', config: 'by the configuration file', console: 'in the console', operator: 'by the operator',
};

/** A credential just made, shown once above the panel. */
export type Revealed = { kind: 'emoji'; names: string[] } | { kind: 'password'; value: string };

export interface AdminPanelOptions {
  /** The person's page (actions post to `<base>/<action>`). */
  base: string;
  csrf: string;
  user: User;
  /** The admin is looking at their own page. */
  self: boolean;
  /** Their own school, when it is another one of the district (it manages their sign-in and suspension). */
  ownSchool?: string | undefined;
  /** They are staff at another school too: their sign-in and suspension are not changed here (access.ts). */
  staffElsewhere?: boolean | undefined;
  grants: StaffGrant[];
  /** The people the grants name as granted by (user id → name). */
  granters: ReadonlyMap<string, string>;
  /** The password form's refusal, with its fields. */
  passwordError?: { message: string; fields: { path: string; message: string }[] } | undefined;
}

/**
 * The credential made, once: the emoji pictures large with their names — and, given `card` (where it posts,
 * with the session's token), a form that prints their card (src/school/emoji-card.ts) — or the password to copy.
 */
export function revealedCredential(r: Revealed, card?: { action: string; csrf: string }): Raw {
  if (r.kind === 'emoji') {
    return html`<section class="reveal" aria-labelledby="revealed-heading">
<h2 id="revealed-heading">The new emoji password</h2>
<p>Shown once: Lanyard keeps only a hash. Write it down or print it for them now.</p>
<ol class="emoji-reveal">${r.names.map((n) => html`<li><span class="emoji-reveal-glyph" aria-hidden="true">${emojiGlyph(n) ?? '?'}</span> ${n}</li>`)}</ol>
${card ? html`<form method="post" action="${card.action}" class="emoji-card-form">
  ${csrfField(card.csrf)}<input type="hidden" name="pictures" value="${r.names.join(',')}">
  <fieldset><legend>Print their card</legend>${paperChoice()}
  <button type="submit" class="secondary-button">Download the card (PDF)</button></fieldset>
</form>` : ''}
</section>`;
  }
  return html`<section class="reveal" aria-labelledby="revealed-heading">
<h2 id="revealed-heading">The new password</h2>
<p>Shown once: Lanyard keeps only a hash. Hand it over now.</p>
${copyable('new-password', r.value, 'the new password')}
</section>`;
}

function grantLine(g: StaffGrant, granters: ReadonlyMap<string, string>): string {
  const by = g.source === 'console' ? `by ${(g.grantedBy && granters.get(g.grantedBy)) ?? 'a school admin'} in the console` : SOURCE_WORDS[g.source];
  return `given ${by} on ${utcTime(g.grantedAt).slice(0, 10)}`;
}

export function personAdminPanel(o: AdminPanelOptions): Raw {
  const elsewhere = o.ownSchool ? html`<p>Their own school, ${o.ownSchool}, manages how they sign in and whether they are suspended.</p>`
    : o.staffElsewhere && !o.self ? html`<p>They are a member of staff at another school too, so how they sign in, and whether they are
  suspended, are not changed here: they change their own password on their Account page, or the operator does.</p>` : undefined;
  return html`${elsewhere ? html`<section class="dev-section" aria-labelledby="account-heading">
<h2 id="account-heading">Signing in and suspension</h2>
${elsewhere}
</section>` : html`${credentialsSection(o)}${suspensionSection(o)}`}
${rolesSection(o)}`;
}

function credentialsSection(o: AdminPanelOptions): Raw {
  if (o.self) {
    return html`<section class="dev-section" aria-labelledby="sign-in-heading">
<h2 id="sign-in-heading">Signing in</h2>
<p>Change your own password on your <a href="/school/account">Account</a> page.</p>
</section>`;
  }
  const err = o.passwordError;
  const fieldError = (name: string) => err?.fields.find((f) => f.path === name)?.message;
  return html`<section class="dev-section" aria-labelledby="sign-in-heading">
<h2 id="sign-in-heading">Signing in</h2>
<p>A new credential replaces the old one at once and signs them out everywhere. Lanyard shows it to you once.</p>
<div class="dev-actions person-actions">
${postButton(`${o.base}/emoji`, o.csrf, 'Make a new emoji password')}
${postButton(`${o.base}/password`, o.csrf, 'Make up a new password', { hidden: { how: 'generate' } })}
</div>
<h3 id="set-password-heading">Or set a password you choose</h3>
${problemsSummary(err && !err.fields.length ? err.message : undefined, err?.fields ?? [])}
<form method="post" action="${o.base}/password" class="dev-form" aria-labelledby="set-password-heading">
${csrfField(o.csrf)}<input type="hidden" name="how" value="typed">
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true, error: fieldError('password'), hint: 'At least 8 characters.' })}
${field({ name: 'password_again', label: 'The same password again', type: 'password', autocomplete: 'new-password', required: true, error: fieldError('password_again') })}
<div class="form-actions"><button type="submit">Set this password</button></div>
</form>
</section>`;
}

function suspensionSection(o: AdminPanelOptions): Raw {
  return html`<section class="dev-section" aria-labelledby="suspension-heading">
<h2 id="suspension-heading">Suspension</h2>
${o.user.suspendedAt
    ? html`<p>Suspended since ${utcTime(o.user.suspendedAt)} UTC: they cannot sign in by any method.</p>
${postButton(`${o.base}/restore`, o.csrf, 'Restore their account', { primary: true })}`
    : o.self ? html`<p>Another admin of the school can suspend your account; you cannot.</p>`
      : html`<p>A suspended person cannot sign in by any method, and is signed out everywhere at once. Their record stays.</p>
${postButton(`${o.base}/suspend`, o.csrf, 'Suspend their account', { danger: true })}`}
</section>`;
}

function rolesSection(o: AdminPanelOptions): Raw {
  return html`<section class="dev-section" aria-labelledby="roles-heading">
<h2 id="roles-heading">Staff roles in this school</h2>
<ul class="role-list">
${STAFF_ROLES.map((role) => {
    const g = o.grants.find((x) => x.role === role);
    return html`<li><strong>${ROLE_NAMES[role]}</strong>: ${g ? html`${grantLine(g, o.granters)}.
  ${postButton(`${o.base}/roles`, o.csrf, 'Withdraw', { remove: true, hidden: { role, action: 'revoke' }, context: `the role ${ROLE_NAMES[role]}` })}`
    : html`no. ${postButton(`${o.base}/roles`, o.csrf, 'Give this role', { hidden: { role, action: 'grant' }, context: ROLE_NAMES[role] })}`}</li>`;
  })}
</ul>
<p class="hint">A role from the roster comes back with the next import while the roster still gives it, and one from the configuration file at the next start.</p>
</section>`;
}
