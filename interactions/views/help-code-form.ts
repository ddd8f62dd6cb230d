import { html, type Raw } from '../../src/web/html.js';
import { helpCodeInput } from './help-code-input.js';
import { errorMessage, hiddenFields, invalidIf, stepFooter, stepHeading, stepPage, type StepView } from './step-frame.js';

/** "I have a help code": the username, then the code in big digits (help-code-input.ts). */
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
  ${helpCodeInput(t, { autofocus: !!v.username, invalid: !!v.error })}
  <button type="submit">${t.t('signIn.submit')}</button>
</form>
${stepFooter(v, 'help_code')}
`);
}
