import type { DeveloperEvent } from '../../../adapters/store.js';
import { csrfField, emailAddress, errorMessage, field, flash, postButton } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { NAME_MAX_LENGTH } from '../developer-accounts.js';
import { PASSWORD_MAX_LENGTH } from '../developer-password.js';
import type { FieldProblem } from '../errors.js';
import { accountHistory } from './account-history-view.js';
import { M } from './account-messages.js';
import { fieldError } from './account-page.js';
import { when } from './app-parts.js';
import { developerLayout, type SignedIn } from './signed-in.js';

/** Which form of the account page a refusal belongs to, and what was refused. */
export interface AccountFormErrors {
  form: 'name' | 'password' | 'totp-setup' | 'recovery-codes' | 'totp-disable';
  fields: FieldProblem[];
  /** A message for the whole form (a 429's wait). */
  message?: string | Raw | undefined;
}

export interface AccountView {
  who: SignedIn;
  history: DeveloperEvent[];
  flash?: string | undefined;
  errors?: AccountFormErrors | undefined;
  /** What was typed into the name form, when it is shown again. */
  displayName?: string | undefined;
}

const errorsOf = (v: AccountView, form: AccountFormErrors['form']) => (v.errors?.form === form ? v.errors : undefined);

export function accountPage(v: AccountView): string {
  const d = v.who.account;
  const nameErr = errorsOf(v, 'name');
  const pwErr = errorsOf(v, 'password');
  const totpErr = errorsOf(v, 'totp-disable');
  const setupErr = errorsOf(v, 'totp-setup');
  const recoveryErr = errorsOf(v, 'recovery-codes');
  /** A form that asks for the password before a change to the second step (a stolen session cannot make one). */
  const withPassword = (action: string, name: string, errors: AccountFormErrors | undefined, hint: string, button: Raw) => html`
${errors?.message ? errorMessage(errors.message) : ''}
<form method="post" action="${action}" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  ${field({ name, label: 'Your password', hint, type: 'password', required: true, autocomplete: 'current-password',
    maxlength: PASSWORD_MAX_LENGTH * 4, error: errors && fieldError(errors.fields, name) })}
  ${button}
</form>`;
  const totpOn = !!d.totpSecret;
  return developerLayout(M.accountTitle, html`
<h1>${M.accountTitle}</h1>
${flash(v.flash)}

<section aria-labelledby="profile-heading" class="dev-section">
<h2 id="profile-heading">Profile</h2>
<dl class="dev-facts">
  <dt>Email</dt><dd>${emailAddress(d.email)}</dd>
  <dt>Account created</dt><dd>${when(d.createdAt)}</dd>
</dl>
<form method="post" action="/developer/account/name" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  ${field({ name: 'displayName', label: M.nameLabel, hint: M.nameHint, value: v.displayName ?? d.displayName, required: true, autocomplete: 'name',
    maxlength: NAME_MAX_LENGTH, error: nameErr && fieldError(nameErr.fields, 'displayName') })}
  <button type="submit" class="secondary-button">Save name</button>
</form>
</section>

<section aria-labelledby="password-heading" class="dev-section">
<h2 id="password-heading">Password</h2>
${pwErr?.message ? errorMessage(pwErr.message) : ''}
<form method="post" action="/developer/account/password" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  <input type="text" name="username" value="${d.email}" autocomplete="username" hidden>
  ${field({ name: 'currentPassword', label: 'Current password', type: 'password', required: true, autocomplete: 'current-password',
    maxlength: PASSWORD_MAX_LENGTH * 4, error: pwErr && fieldError(pwErr.fields, 'currentPassword') })}
  ${field({ name: 'newPassword', label: 'New password', hint: M.passwordHint, type: 'password', required: true, autocomplete: 'new-password',
    maxlength: PASSWORD_MAX_LENGTH * 4, error: pwErr && fieldError(pwErr.fields, 'newPassword') })}
  ${field({ name: 'confirmPassword', label: 'New password again', type: 'password', required: true, autocomplete: 'new-password',
    maxlength: PASSWORD_MAX_LENGTH * 4, error: pwErr && fieldError(pwErr.fields, 'confirmPassword') })}
  <p class="hint">Changing your password signs you out everywhere else.</p>
  <button type="submit" class="secondary-button">Change password</button>
</form>
</section>

<section aria-labelledby="totp-heading" class="dev-section">
<h2 id="totp-heading">${totpOn ? M.totpOnTitle : M.totpOffTitle}</h2>
${totpOn ? html`
<p>Signing in asks for a code from your authenticator app after your password.
You have <strong>${(d.recoveryCodeHashes ?? []).length}</strong> unused recovery code${(d.recoveryCodeHashes ?? []).length === 1 ? '' : 's'}.</p>
<h3>New recovery codes</h3>
${withPassword('/developer/account/recovery-codes', 'recoveryPassword', recoveryErr, 'Needed to replace your recovery codes (the old ones stop working).',
    html`<button type="submit" class="secondary-button">Make new recovery codes</button>`)}
<h3>Turn two-step sign-in off</h3>
${withPassword('/developer/account/totp/disable', 'password', totpErr, 'Needed to turn the second step off.',
    html`<button type="submit" class="danger">Turn off two-step sign-in</button>`)}` : html`
<p>${M.totpOff}</p>
${withPassword('/developer/account/totp/setup', 'setupPassword', setupErr, 'Needed to set up the second step.',
    html`<button type="submit">Set up two-step sign-in</button>`)}`}
</section>

<section aria-labelledby="tokens-heading" class="dev-section">
<h2 id="tokens-heading">${M.tokensTitle}</h2>
<p>${M.tokensIntro} <a href="/developer/account/tokens">Manage your API tokens</a>.</p>
</section>

<section aria-labelledby="sessions-heading" class="dev-section">
<h2 id="sessions-heading">${M.sessionsTitle}</h2>
<p>${M.sessionsIntro}</p>
<div class="dev-actions">${postButton('/developer/account/sign-out-everywhere', v.who.csrf, 'Sign out everywhere', { danger: true })}</div>
</section>

<section aria-labelledby="history-heading" class="dev-section">
<h2 id="history-heading">History</h2>
${accountHistory(v.history)}
</section>
`, v.who, 'account');
}
