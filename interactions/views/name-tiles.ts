import type { TilePupil } from '../../src/accounts/class-tiles.js';
import { html } from '../../src/web/html.js';
import { stepFooter, stepHeading, stepPage, type StepView } from './step-frame.js';

/**
 * "Who are you?": a class's name tiles (docs/childrens-sign-in.md → Class sign-in), big links a six-year-old
 * taps: a coloured circle with the initial, and the first name (never a surname or a username). Each goes to
 * that pupil's pictures (interactions/class-tiles.ts). Plain links: no JavaScript, keyboard and switch access
 * as any link.
 */
export function nameTiles(v: StepView & { tiles: readonly TilePupil[] }): string {
  const { t } = v.t;
  const org = encodeURIComponent(v.organisation.slug);
  return stepPage(v, html`
${stepHeading(v, t('classSignIn.whoAreYou'))}
<p class="muted tiles-hint">${t('classSignIn.tapYourName')}</p>
<ul class="name-tiles" aria-label="${t('classSignIn.names')}">${v.tiles.map((p) => html`
  <li><a class="name-tile" href="/interaction/${v.uid}/pupil/${encodeURIComponent(p.id)}?org=${org}">
    <span class="tile-initial tile-colour-${p.colour}" aria-hidden="true">${p.initial}</span>
    <span class="tile-name" dir="auto">${p.label}</span>
  </a></li>`)}
</ul>
${stepFooter(v, 'tiles')}
`, { wide: true, stylesheet: 'class-tiles.css' });
}
