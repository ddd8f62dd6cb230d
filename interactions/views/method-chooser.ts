import type { LoginMethod } from '../../adapters/store.js';
import { offersHelpCodes } from '../../src/accounts/help-codes.js';
import { html } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import { stepFooter, stepHeading, type StepView } from './step-frame.js';

const METHODS: Record<LoginMethod, { icon: string; label: string; hint: string }> = {
  emoji: { icon: '🐶', label: 'Emoji password', hint: 'Tap your secret pictures' },
  badge: { icon: '🪪', label: 'Magic badge', hint: 'Show your badge to the camera' },
  password: { icon: '🔑', label: 'Username and password', hint: 'Type them in' },
};

/** After the school's methods, at every school: a help code a member of staff gave (docs/childrens-sign-in.md → Help codes). */
const HELP_CODE = { icon: '🔢', label: 'I have a help code', hint: 'Numbers from your teacher' };

export function methodChooser(v: StepView): string {
  const org = encodeURIComponent(v.organisation.slug);
  const choice = (path: string, m: { icon: string; label: string; hint: string }) => html`
  <li><a class="method" href="/interaction/${v.uid}/${path}?org=${org}">
    <span class="method-icon" aria-hidden="true">${m.icon}</span>
    <span><span class="method-label">${m.label}</span><span class="method-hint">${m.hint}</span></span>
  </a></li>`;
  return layout(`Sign in to ${v.organisation.name}`, html`
${stepHeading(v, 'How do you sign in?')}
<ul class="methods">${v.organisation.login.methods.map((m) => choice(m, METHODS[m]))}${
  offersHelpCodes(v.organisation) ? choice('help-code', HELP_CODE) : ''}
</ul>
${stepFooter(v, 'chooser')}
`);
}
