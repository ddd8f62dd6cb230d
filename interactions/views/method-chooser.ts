import type { LoginMethod } from '../../adapters/store.js';
import { html } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import { stepFooter, stepHeading, type StepView } from './step-frame.js';

const METHODS: Record<LoginMethod, { icon: string; label: string; hint: string }> = {
  emoji: { icon: '🐶', label: 'Emoji password', hint: 'Tap your secret pictures' },
  badge: { icon: '🪪', label: 'Magic badge', hint: 'Show your badge to the camera' },
  password: { icon: '🔑', label: 'Username and password', hint: 'Type them in' },
};

export function methodChooser(v: StepView): string {
  const org = encodeURIComponent(v.organisation.slug);
  return layout(`Sign in to ${v.organisation.name}`, html`
${stepHeading(v, 'How do you sign in?')}
<ul class="methods">${v.organisation.login.methods.map((m) => html`
  <li><a class="method" href="/interaction/${v.uid}/${m}?org=${org}">
    <span class="method-icon" aria-hidden="true">${METHODS[m].icon}</span>
    <span><span class="method-label">${METHODS[m].label}</span><span class="method-hint">${METHODS[m].hint}</span></span>
  </a></li>`)}
</ul>
${stepFooter(v, 'chooser')}
`);
}
