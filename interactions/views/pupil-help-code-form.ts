import { HELP_CODE_LENGTH } from '../../src/accounts/help-codes.js';
import { html, type Raw } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import { errorMessage, hiddenFields, isolated, stepFooter, stepHeading, type StepView, type TappedPupil } from './step-frame.js';

/**
 * A help code for the pupil whose name tile was tapped (class sign-in): only the code, in big digits, since the
 * tile said who they are. As the ordinary help-code screen, the field brings up the number pad and takes spaces.
 */
export function pupilHelpCodeForm(v: StepView & { pupil: TappedPupil; error?: string | Raw | undefined }): string {
  const { t } = v.t;
  return layout(t('classSignIn.pageTitle', { school: v.organisation.name }), html`
${stepHeading(v, t('classSignIn.helpCodeGreeting', { name: isolated(v.pupil.name) }))}
${errorMessage(v.error)}
<form method="post" action="/interaction/${v.uid}/pupil/${encodeURIComponent(v.pupil.id)}/help-code" class="help-code-form" novalidate>
  ${hiddenFields(v)}
  <label for="help-code">${t('classSignIn.helpCodeLabel')}</label>
  <p class="hint" id="code-hint">${t('classSignIn.helpCodeHint', { count: HELP_CODE_LENGTH })}</p>
  <input id="help-code" name="code" type="text" class="help-code-input" inputmode="numeric" autocomplete="one-time-code"
    pattern="[0-9 ]*" maxlength="${HELP_CODE_LENGTH + 2}" spellcheck="false" required autofocus
    ${v.error ? html`aria-invalid="true" aria-describedby="code-hint form-error"` : html`aria-describedby="code-hint"`}>
  <button type="submit">${t('classSignIn.signIn')}</button>
</form>
${stepFooter(v, 'help_code')}
`, { t: v.t, switchUrl: v.url });
}
