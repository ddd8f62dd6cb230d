import type { StaffSecondFactor } from '../../../adapters/store.js';
import { PASSWORD_MAX_LENGTH } from '../../accounts/user-password.js';
import { personName } from '../../audit/audit-people.js';
import { csrfField, field, flash, problemsSummary, table } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { when } from '../../web/instants.js';
import { needsSecondFactor, type SchoolAccess, type StaffMember } from '../access.js';
import type { StaffSignedIn } from '../area.js';
import { TWO_STEP_PATH } from '../second-step.js';
import { schoolLayout, schoolPath } from '../views/school-layout.js';
import { M } from './account-messages.js';
import type { ConfirmWith } from './confirmation.js';
import { confirmField, signInAgainButton } from './confirm-field.js';

export const ACCOUNT_PATH = '/school/account';

/** Which form of the account page a refusal belongs to, and what was refused. */
export interface AccountFormErrors {
  form: 'password' | 'recovery-codes' | 'two-step-off';
  fields: { path: string; message: string }[];
  /** A message for the whole form (a wait after too many wrong tries). */
  message?: string | Raw | undefined;
}

export interface AccountView {
  who: StaffSignedIn;
  member: StaffMember;
  factor: StaffSecondFactor | undefined;
  hasPassword: boolean;
  /** What confirms a change to two-step sign-in. */
  confirm: ConfirmWith;
  tokens: number;
  flash?: string | undefined;
  errors?: AccountFormErrors | undefined;
}

const fieldError = (errors: AccountFormErrors | undefined, name: string) => errors?.fields.find((f) => f.path === name)?.message;
const roles = (s: SchoolAccess) => [s.admin ? M.roleAdmin : undefined, s.teaches.size || !s.admin ? M.roleTeacher : undefined].filter(Boolean).join(', ');

/** /school/account: who they are and where, their password, two-step sign-in, API tokens. */
export function accountPage(v: AccountView): string {
  const user = v.member.user;
  const errorsOf = (form: AccountFormErrors['form']) => (v.errors?.form === form ? v.errors : undefined);
  const pw = errorsOf('password');
  return schoolLayout(M.accountTitle, html`
<h1>${M.accountTitle}</h1>
${flash(v.flash)}
<section aria-labelledby="profile-heading" class="dev-section">
<h2 id="profile-heading">${personName(user)}</h2>
<dl class="dev-facts"><dt>Username</dt><dd>${user.username}</dd>${user.email ? html`<dt>Email</dt><dd>${user.email}</dd>` : ''}</dl>
<h3>${M.schoolsHeading}</h3>
${table<SchoolAccess>(M.schoolsHeading, [
    { heading: 'School', cell: (s) => html`<a href="${schoolPath(s.organisation.slug)}">${s.organisation.name}</a>` },
    { heading: 'Role', cell: roles },
  ], v.member.schools, '')}
</section>

<section aria-labelledby="password-heading" class="dev-section">
<h2 id="password-heading">${M.passwordHeading}</h2>
${v.hasPassword ? html`${problemsSummary(pw?.message, pw?.fields ?? [])}
<form method="post" action="${ACCOUNT_PATH}/password" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  <input type="text" name="username" value="${user.username}" autocomplete="username" hidden>
  ${field({ name: 'currentPassword', label: M.currentPasswordLabel, type: 'password', required: true, autocomplete: 'current-password',
    maxlength: PASSWORD_MAX_LENGTH * 4, error: fieldError(pw, 'currentPassword') })}
  ${field({ name: 'newPassword', label: M.newPasswordLabel, hint: M.newPasswordHint, type: 'password', required: true, autocomplete: 'new-password',
    maxlength: PASSWORD_MAX_LENGTH * 4, error: fieldError(pw, 'newPassword') })}
  ${field({ name: 'confirmPassword', label: M.confirmPasswordLabel, type: 'password', required: true, autocomplete: 'new-password',
    maxlength: PASSWORD_MAX_LENGTH * 4, error: fieldError(pw, 'confirmPassword') })}
  <p class="hint">${M.passwordChangeNote}</p>
  <button type="submit" class="secondary-button">Change password</button>
</form>` : html`<p>${M.noPassword}</p>`}
</section>

${twoStepSection(v, errorsOf('recovery-codes'), errorsOf('two-step-off'))}

<section aria-labelledby="tokens-heading" class="dev-section">
<h2 id="tokens-heading">${M.tokensTitle}</h2>
<p>${M.tokensIntro}</p>
<p><a href="${ACCOUNT_PATH}/tokens">Manage your API tokens</a> (${v.tokens === 1 ? '1 token' : `${v.tokens} tokens`}).</p>
</section>
`, v.who, undefined, 'account');
}

function twoStepSection(v: AccountView, recovery: AccountFormErrors | undefined, off: AccountFormErrors | undefined): Raw {
  if (!v.factor) {
    return html`<section aria-labelledby="two-step-heading" class="dev-section">
<h2 id="two-step-heading">${M.twoStepOffTitle}</h2>
<p>${M.twoStepOffTeacher}</p>
<p><a class="button" href="${TWO_STEP_PATH}">Set up two-step sign-in</a></p>
</section>`;
  }
  const withConfirm = (action: string, errors: AccountFormErrors | undefined, hint: string, button: Raw) => (v.confirm === 'sign-in-again'
    ? signInAgainButton(v.who.csrf, ACCOUNT_PATH)
    : html`${problemsSummary(errors?.message, errors?.fields ?? [])}
<form method="post" action="${action}" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  <input type="text" name="username" value="${v.member.user.username}" autocomplete="username" hidden>
  <p class="hint">${hint}</p>
  ${confirmField(v.confirm, fieldError(errors, 'confirm'))}
  ${button}
</form>`);
  const left = v.factor.recoveryCodeHashes.length;
  return html`<section aria-labelledby="two-step-heading" class="dev-section">
<h2 id="two-step-heading">${M.twoStepOnTitle}</h2>
<p>${M.twoStepOn} On since ${when(v.factor.enabledAt)}. ${M.recoveryLeft(left)}</p>
<h3>${M.recoveryReplaceHeading}</h3>
${withConfirm(`${ACCOUNT_PATH}/recovery-codes`, recovery, M.recoveryReplaceHint, html`<button type="submit" class="secondary-button">Make new recovery codes</button>`)}
<h3>${M.disableHeading}</h3>
${needsSecondFactor(v.member) ? html`<p>${M.twoStepAdminsKeep}</p>`
    : withConfirm(`${TWO_STEP_PATH}/off`, off, M.twoStepOffNote, html`<button type="submit" class="danger">Turn off two-step sign-in</button>`)}
</section>`;
}
