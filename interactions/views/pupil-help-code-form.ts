import { html, type Raw } from '../../src/web/html.js';
import { helpCodeInput } from './help-code-input.js';
import { pupilFooter } from './pupil-footer.js';
import { errorMessage, hiddenFields, isolated, stepHeading, stepPage, type StepView, type TappedPupil } from './step-frame.js';

/**
 * A help code for the pupil whose name tile was tapped (class sign-in): only the code, in big digits
 * (help-code-input.ts, as on the ordinary help-code screen), since the tile said who they are.
 */
export function pupilHelpCodeForm(v: StepView & { pupil: TappedPupil; error?: string | Raw | undefined }): string {
  const { t } = v.t;
  return stepPage(v, html`
${stepHeading(v, t('classSignIn.helpCodeGreeting', { name: isolated(v.pupil.name) }))}
${errorMessage(v.error)}
<form method="post" action="/interaction/${v.uid}/pupil/${encodeURIComponent(v.pupil.id)}/help-code" class="help-code-form" novalidate>
  ${hiddenFields(v)}
  ${helpCodeInput(v.t, { autofocus: true, invalid: !!v.error })}
  <button type="submit">${t('classSignIn.signIn')}</button>
</form>
${pupilFooter(v, 'help_code')}
`);
}
