import { csrfField, errorMessage, field, invalidIf } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { layout } from '../../web/layout.js';
import { M } from '../account/account-messages.js';
import { SIGN_IN_PATH } from '../area.js';
import { SECOND_STEP_PATH } from '../second-step.js';

/** The second step of signing in to the console: a code from the app, or a recovery code. */
export function secondStepPage(v: { csrf: string; error?: string | Raw | undefined }): string {
  return layout(M.secondStepTitle, html`
<h1>${M.secondStepTitle}</h1>
${errorMessage(v.error)}
<p>${M.secondStepIntro}</p>
<form method="post" action="${SECOND_STEP_PATH}" class="dev-form" novalidate>
  ${csrfField(v.csrf)}
  ${field({ name: 'code', label: M.codeLabel, hint: M.codeHint, required: true, autocomplete: 'one-time-code', maxlength: 32, autofocus: true,
    attrs: html`autocapitalize="characters" spellcheck="false" ${invalidIf(v.error)}` })}
  <button type="submit">Continue</button>
</form>
<p class="note"><a href="${SIGN_IN_PATH}">Start again</a></p>
`);
}

/** The half-done sign-in is over (too slow, too many wrong codes, or none in this browser): sign in again. */
export function signInAgainPage(why: string): string {
  return layout('Not signed in', html`
<h1>You are not signed in</h1>
${errorMessage(why)}
<p><a class="button" href="${SIGN_IN_PATH}">${M.signInAgain}</a></p>
`);
}
