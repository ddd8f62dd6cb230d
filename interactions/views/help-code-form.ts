import { HELP_CODE_LENGTH } from '../../src/accounts/help-codes.js';
import { html, type Raw } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import { errorMessage, hiddenFields, invalidIf, stepFooter, stepHeading, type StepView } from './step-frame.js';

/**
 * "I have a help code": the username, then the code in big digits. The code field brings up the number pad
 * (inputmode="numeric") and takes a code the device offers (autocomplete="one-time-code"); spaces are allowed,
 * as the code is printed `123 456`.
 */
export function helpCodeForm(v: StepView & { username?: string; error?: string | Raw }): string {
  return layout(`Sign in to ${v.organisation.name}`, html`
${stepHeading(v, 'Type your username, then the help code from your teacher')}
${errorMessage(v.error)}
<form method="post" action="/interaction/${v.uid}/help-code" class="help-code-form" novalidate>
  ${hiddenFields(v)}
  <label for="username">Your username</label>
  <input id="username" name="username" type="text" value="${v.username ?? ''}" autocomplete="username"
    autocapitalize="none" spellcheck="false" required ${v.username ? '' : 'autofocus'} ${invalidIf(v.error)}>
  <label for="help-code">Help code</label>
  <p class="hint" id="code-hint">${HELP_CODE_LENGTH} numbers</p>
  <input id="help-code" name="code" type="text" class="help-code-input" inputmode="numeric" autocomplete="one-time-code"
    pattern="[0-9 ]*" maxlength="${HELP_CODE_LENGTH + 2}" spellcheck="false" required ${v.username ? 'autofocus' : ''}
    ${v.error ? html`aria-invalid="true" aria-describedby="code-hint form-error"` : html`aria-describedby="code-hint"`}>
  <button type="submit">Sign in</button>
</form>
${stepFooter(v, 'help_code')}
`);
}
