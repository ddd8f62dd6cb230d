import { html } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import type { StepView } from './step-frame.js';

/**
 * A tapped tile that is not on this browser's tiles (or no tiles at all: interactions/class-tiles.ts): says so
 * without a name, and goes back to the sign-in.
 */
export const tileGonePage = (v: Pick<StepView, 't' | 'uid' | 'organisation' | 'url'>): string => layout(v.t.t('classSignIn.gone.title'), html`
<h1>${v.t.t('classSignIn.gone.title')}</h1>
<p>${v.t.t('classSignIn.gone.text')}</p>
<p class="way-on"><a class="button-link" href="/interaction/${v.uid}?org=${encodeURIComponent(v.organisation.slug)}"><span>${
  v.t.t('classSignIn.whoAreYou')}</span></a></p>
`, { t: v.t, switchUrl: v.url });
