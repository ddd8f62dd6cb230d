import type { LoginMethod } from '../../adapters/store.js';
import { offersHelpCodes } from '../../src/accounts/help-codes.js';
import { html } from '../../src/web/html.js';
import type { MessageKey } from '../../src/web/messages/catalogue.js';
import { stepFooter, stepHeading, stepPage, type StepView } from './step-frame.js';

interface Choice { icon: string; label: MessageKey; hint: MessageKey }

const METHODS: Record<LoginMethod, Choice> = {
  emoji: { icon: '🐶', label: 'signIn.method.emoji', hint: 'signIn.method.emoji.hint' },
  badge: { icon: '🪪', label: 'signIn.method.badge', hint: 'signIn.method.badge.hint' },
  password: { icon: '🔑', label: 'signIn.method.password', hint: 'signIn.method.password.hint' },
};

/** After the school's methods, at every school: a help code a member of staff gave (docs/childrens-sign-in.md → Help codes). */
const HELP_CODE: Choice = { icon: '🔢', label: 'signIn.method.helpCode', hint: 'signIn.method.helpCode.hint' };

export function methodChooser(v: StepView): string {
  const { t } = v;
  const org = encodeURIComponent(v.organisation.slug);
  const choice = (path: string, m: Choice) => html`
  <li><a class="method" href="/interaction/${v.uid}/${path}?org=${org}">
    <span class="method-icon" aria-hidden="true">${m.icon}</span>
    <span><span class="method-label">${t.t(m.label)}</span><span class="method-hint">${t.t(m.hint)}</span></span>
  </a></li>`;
  return stepPage(v, html`
${stepHeading(v, t.t('signIn.chooser.prompt'))}
<ul class="methods">${v.organisation.login.methods.map((m) => choice(m, METHODS[m]))}${
  offersHelpCodes(v.organisation) ? choice('help-code', HELP_CODE) : ''}
</ul>
${stepFooter(v, 'chooser')}
`);
}
