import { csrfField, emailAddress, field, problemsSummary } from '../../web/components.js';
import { showUnseen } from '../../formats/unseen-characters.js';
import { html, type Raw } from '../../web/html.js';
import { layout } from '../../web/layout.js';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../developer-accounts.js';
import { PASSWORD_MAX_LENGTH } from '../developer-password.js';
import type { FieldProblem } from '../errors.js';
import { M } from './account-messages.js';
import { HOME, nextField, withNext } from './account-next.js';
import { fieldError } from './account-page.js';

export interface JoinView {
  csrf: string;
  /** Where the new developer goes once signed up (safeNext: a page of the developer area), e.g. a team invitation's link. */
  next?: string;
  email?: string;
  displayName?: string;
  fields?: FieldProblem[];
  /** A message about the whole form (an expired form, an email already registered). */
  error?: string | Raw | undefined;
}

/** Name, password and the password again: what sign-up and an invitation both ask for. */
const accountFields = (v: JoinView) => html`
  ${field({ name: 'displayName', label: M.nameLabel, hint: M.nameHint, value: v.displayName, required: true, autocomplete: 'name', maxlength: NAME_MAX_LENGTH,
    error: fieldError(v.fields ?? [], 'displayName') })}
  ${field({ name: 'password', label: M.passwordLabel, hint: M.passwordHint, type: 'password', required: true, autocomplete: 'new-password',
    maxlength: PASSWORD_MAX_LENGTH * 4, error: fieldError(v.fields ?? [], 'password') })}
  ${field({ name: 'confirm', label: M.confirmLabel, type: 'password', required: true, autocomplete: 'new-password', maxlength: PASSWORD_MAX_LENGTH * 4,
    error: fieldError(v.fields ?? [], 'confirm') })}`;

export function signUpPage(v: JoinView): string {
  return layout(M.signUpTitle, html`
<h1>${M.signUpTitle}</h1>
${problemsSummary(v.error, v.fields)}
<p>${M.signUpIntro}</p>
<form method="post" action="/developer/sign-up" class="dev-form" novalidate>
  ${csrfField(v.csrf)}
  ${nextField(v.next)}
  ${field({ name: 'email', label: M.emailLabel, type: 'email', value: v.email === undefined ? undefined : showUnseen(v.email), required: true, autocomplete: 'email', maxlength: EMAIL_MAX_LENGTH,
    autofocus: !v.fields?.length, error: fieldError(v.fields ?? [], 'email') })}
  ${accountFields(v)}
  <button type="submit">Create account</button>
</form>
<p class="note">Have an account? <a href="${withNext('/developer/sign-in', v.next ?? HOME)}">Sign in</a>.</p>
`);
}

export function invitationPage(v: JoinView & { token: string; email: string }): string {
  return layout(M.invitationTitle, html`
<h1>${M.invitationTitle}</h1>
${problemsSummary(v.error, v.fields)}
<p>${M.invitationIntro(v.email)}</p>
<form method="post" action="/developer/invitations/${v.token}" class="dev-form" novalidate>
  ${csrfField(v.csrf)}
  <p><strong>${M.emailLabel}:</strong> ${emailAddress(v.email)}</p>
  ${accountFields(v)}
  <button type="submit">Create my account</button>
</form>
`);
}

/** A page that only says something (sign-up closed, an invitation gone), with a way on. */
export function noticePage(title: string, message: string): string {
  return layout(title, html`
<h1>${title}</h1>
<p>${message}</p>
<p class="note"><a href="/developer/sign-in">Sign in to the developer area</a></p>
`);
}
