import { HELP_CODE_LENGTH } from '../../src/accounts/help-codes.js';
import { html, type Raw } from '../../src/web/html.js';
import type { Translator } from '../../src/web/i18n/translator.js';

/**
 * A help code's field, on the ordinary help-code screen and a tapped pupil's (help-code-form.ts,
 * pupil-help-code-form.ts): its label and hint, then the code in big digits. It brings up the number pad
 * (inputmode="numeric"), takes a code the device offers (autocomplete="one-time-code") and spaces, as the code
 * is printed `123 456`; its digits run left to right in every language (dir="ltr"), as printed.
 */
export function helpCodeInput(t: Translator, o: { autofocus: boolean; invalid: boolean }): Raw {
  return html`
  <label for="help-code">${t.t('signIn.helpCode.label')}</label>
  <p class="hint" id="code-hint">${t.t('signIn.helpCode.hint', { count: HELP_CODE_LENGTH })}</p>
  <input id="help-code" name="code" type="text" class="help-code-input" inputmode="numeric" autocomplete="one-time-code"
    pattern="[0-9 ]*" maxlength="${HELP_CODE_LENGTH + 2}" spellcheck="false" required ${o.autofocus ? 'autofocus' : ''} dir="ltr"
    ${o.invalid ? html`aria-invalid="true" aria-describedby="code-hint form-error"` : html`aria-describedby="code-hint"`}>`;
}
