import { html, type Raw } from '../../src/web/html.js';
import { errorMessage, hiddenFields, invalidIf, stepFooter, stepHeading, stepPage, type StepView } from './step-frame.js';

export function passwordForm(v: StepView & { username?: string; error?: string | Raw }): string {
  const { t } = v;
  return stepPage(v, html`
${stepHeading(v, t.t('signIn.password.prompt'))}
${errorMessage(v.error)}
<form method="post" action="/interaction/${v.uid}/password" novalidate>
  ${hiddenFields(v)}
  <label for="username">${t.t('signIn.username')}</label>
  <input id="username" name="username" type="text" value="${v.username ?? ''}" autocomplete="username"
    autocapitalize="none" spellcheck="false" required ${v.username ? '' : 'autofocus'} ${invalidIf(v.error)}>
  <label for="password">${t.t('signIn.password')}</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required ${v.username ? 'autofocus' : ''} ${invalidIf(v.error)}>
  <button type="submit">${t.t('signIn.submit')}</button>
</form>
${stepFooter(v, 'password')}
`);
}
