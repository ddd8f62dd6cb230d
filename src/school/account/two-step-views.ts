import { COPY_SCRIPT, csrfField, field, flash, problemsSummary } from '../../web/components.js';
import { groupedSecret } from '../../accounts/totp.js';
import { html, type Raw } from '../../web/html.js';
import type { StaffSignedIn } from '../area.js';
import { TWO_STEP_PATH } from '../second-step.js';
import { schoolLayout } from '../views/school-layout.js';
import { M } from './account-messages.js';
import { ACCOUNT_PATH } from './account-view.js';
import type { ConfirmWith } from './confirmation.js';
import { confirmField, signInAgainButton } from './confirm-field.js';

/**
 * Before the set-up: why (a school admin must), and what confirms it is them (nothing more after a recent
 * sign-in; else their password, or signing in again).
 */
export function twoStepIntroPage(v: { who: StaffSignedIn; required: boolean; confirm: ConfirmWith; error?: string | undefined; message?: string | Raw | undefined }): string {
  return schoolLayout(M.twoStepRequiredTitle, html`
<h1>${M.twoStepRequiredTitle}</h1>
${v.required ? html`<p class="warning" role="status">${M.twoStepRequired}</p>` : html`<p>${M.twoStepOffTeacher}</p>`}
${v.confirm === 'sign-in-again' ? signInAgainButton(v.who.csrf, TWO_STEP_PATH) : html`${problemsSummary(v.message, v.error ? [{ path: 'confirm', message: v.error }] : [])}
<form method="post" action="${TWO_STEP_PATH}/start" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  <input type="text" name="username" value="${v.who.account.user.username}" autocomplete="username" hidden>
  ${confirmField(v.confirm, v.error)}
  <button type="submit">Set up two-step sign-in</button>
</form>`}
${v.required ? '' : html`<p class="note"><a href="${ACCOUNT_PATH}">Back to your account</a></p>`}
`, v.who, undefined, 'account');
}

/** The secret as a QR code and as text, and the code that proves the app has it. */
export function twoStepSetupPage(v: { who: StaffSignedIn; secret: string; qrDataUrl: string; required: boolean; error?: string | undefined }): string {
  return schoolLayout(M.setupTitle, html`
<h1>${M.setupTitle}</h1>
<ol class="dev-steps">
<li><p>${M.setupIntro}</p>
<img class="dev-qr" src="${v.qrDataUrl}" width="232" height="232" alt="QR code holding your two-step sign-in key (the same key is written out below)"></li>
<li><p>${M.setupCannotScan}</p>
<p><code class="dev-secret" id="totp-secret">${groupedSecret(v.secret)}</code>
<button type="button" class="secondary-button dev-copy" data-copy="totp-secret" hidden>Copy</button></p></li>
<li>
<form method="post" action="${TWO_STEP_PATH}" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  ${field({ name: 'code', label: M.setupCodeLabel, required: true, autocomplete: 'one-time-code', maxlength: 12, autofocus: !!v.error,
    error: v.error, attrs: html`inputmode="numeric" pattern="[0-9 ]*"` })}
  <button type="submit">Turn on two-step sign-in</button>
</form></li>
</ol>
${v.required ? '' : html`<p class="note"><a href="${ACCOUNT_PATH}">Cancel</a></p>`}
${COPY_SCRIPT}
`, v.who, undefined, 'account');
}

/** The recovery codes, this once. */
export function recoveryCodesPage(who: StaffSignedIn, codes: string[], message?: string): string {
  return schoolLayout(M.recoveryTitle, html`
<h1>${M.recoveryTitle}</h1>
${flash(message)}
<p role="status" class="warning">${M.recoveryIntro}</p>
<pre class="dev-codes" id="recovery-codes">${codes.join('\n')}</pre>
<p class="dev-actions"><button type="button" class="secondary-button dev-copy" data-copy="recovery-codes" hidden>Copy the codes</button>
<button type="button" class="secondary-button dev-copy" data-print hidden>Print the codes</button></p>
<p class="note"><a href="${ACCOUNT_PATH}">Go on to your account</a> · <a href="/school">Go to the console</a></p>
${COPY_SCRIPT}
`, who, undefined, 'account');
}
