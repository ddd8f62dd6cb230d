import { csrfField, errorMessage, field, flash, invalidIf } from '../../web/components.js';
import { showUnseen } from '../../formats/unseen-characters.js';
import { html, type Raw } from '../../web/html.js';
import { layout } from '../../web/layout.js';
import { EMAIL_MAX_LENGTH } from '../developer-accounts.js';
import { PASSWORD_MAX_LENGTH } from '../developer-password.js';
import { M } from './account-messages.js';
import { nextField, withNext } from './account-next.js';

export interface SignInView {
  csrf: string;
  next: string;
  email?: string;
  error?: string | Raw | undefined;
  flash?: string | undefined;
  signupOpen: boolean;
}

/** Email and password (a 429's wait counts down with the layout's countdown script). */
export function signInPage(v: SignInView): string {
  return layout(M.signInTitle, html`
<h1>${M.signInTitle}</h1>
${flash(v.flash, 'info')}
${errorMessage(v.error)}
<p>${M.signInIntro}</p>
<form method="post" action="/developer/sign-in" class="dev-form" novalidate>
  ${csrfField(v.csrf)}
  ${nextField(v.next)}
  ${field({ name: 'email', label: M.emailLabel, type: 'email', value: v.email === undefined ? undefined : showUnseen(v.email), required: true, autocomplete: 'username', maxlength: EMAIL_MAX_LENGTH, autofocus: !v.email, attrs: html`${invalidIf(v.error)}` })}
  ${field({ name: 'password', label: M.passwordLabel, type: 'password', required: true, autocomplete: 'current-password', maxlength: PASSWORD_MAX_LENGTH * 4, autofocus: !!v.email, attrs: html`${invalidIf(v.error)}` })}
  <button type="submit">Sign in</button>
</form>
<p class="note">${v.signupOpen ? html`No account yet? <a href="${withNext('/developer/sign-up', v.next)}">${M.signUpLink}</a>.` : M.noAccount}</p>
<p class="note"><a href="/docs">Developer documentation</a></p>
`);
}

export function verifyPage(v: { csrf: string; error?: string | Raw | undefined }): string {
  return layout(M.verifyTitle, html`
<h1>${M.verifyTitle}</h1>
${errorMessage(v.error)}
<p>${M.verifyIntro}</p>
<form method="post" action="/developer/sign-in/verify" class="dev-form" novalidate>
  ${csrfField(v.csrf)}
  ${field({ name: 'code', label: M.codeLabel, hint: M.codeHint, required: true, autocomplete: 'one-time-code', maxlength: 32, autofocus: true,
    attrs: html`autocapitalize="characters" spellcheck="false" ${invalidIf(v.error)}` })}
  <button type="submit">Continue</button>
</form>
<p class="note"><a href="/developer/sign-in">Start again</a></p>
`);
}
