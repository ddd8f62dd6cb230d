import { html, type Raw } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import { errorMessage, hiddenFields, invalidIf, stepFooter, stepHeading, type StepView } from './step-frame.js';

export function passwordForm(v: StepView & { username?: string; error?: string | Raw }): string {
  return layout(`Sign in to ${v.organisation.name}`, html`
${stepHeading(v, 'Sign in with your username and password')}
${errorMessage(v.error)}
<form method="post" action="/interaction/${v.uid}/password" novalidate>
  ${hiddenFields(v)}
  <label for="username">Username</label>
  <input id="username" name="username" type="text" value="${v.username ?? ''}" autocomplete="username"
    autocapitalize="none" spellcheck="false" required ${v.username ? '' : 'autofocus'} ${invalidIf(v.error)}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required ${v.username ? 'autofocus' : ''} ${invalidIf(v.error)}>
  <button type="submit">Sign in</button>
</form>
${stepFooter(v, 'password')}
`);
}
