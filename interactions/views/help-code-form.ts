import { HELP_CODE_LENGTH } from '../../src/accounts/help-codes.js';
import { html, type Raw } from '../../src/web/html.js';
import { errorMessage, hiddenFields, invalidIf, stepFooter, stepHeading, stepPage, type StepView } from './step-frame.js';

/**
 * "I have a help code": the username, then the code in big digits. The code field brings up the number pad
 * (inputmode="numeric") and takes a code the device offers (autocomplete="one-time-code"); spaces are allowed,
 * as the code is printed `123 456`.
 */
export function helpCodeForm(v: StepView & { username?: string; error?: string | Raw }): string {
  const { t } = v;
  return stepPage(v, html`
${stepHeading(v, t.t('signIn.helpCode.prompt'))}
${errorMessage(v.error)}
<form method="post" action="/interaction/${v.uid}/help-code" class="help-code-form" novalidate>
  ${hiddenFields(v)}
  <label for="username">${t.t('signIn.helpCode.username')}</label>
  <input id="username" name="username" type="text" value="${v.username ?? ''}" autocomplete="username"
    autocapitalize="none" spellcheck="false" required ${v.username ? '' : 'autofocus'} ${invalidIf(v.error)}>
  <label for="help-code">${t.t('signIn.helpCode.label')}</label>
  <p class="hint" id="code-hint">${t.t('signIn.helpCode.hint', { count: HELP_CODE_LENGTH })}</p>
  <input id="help-code" name="code" type="text" class="help-code-input" inputmode="numeric" autocomplete="one-time-code"
    pattern="[0-9 ]*" maxlength="${HELP_CODE_LENGTH + 2}" spellcheck="false" required ${v.username ? 'autofocus' : ''} dir="ltr"
    ${v.error ? html`aria-invalid="true" aria-describedby="code-hint form-error"` : html`aria-describedby="code-hint"`}>
  <button type="submit">${t.t('signIn.submit')}</button>
</form>
${stepFooter(v, 'help_code')}
`);
}
