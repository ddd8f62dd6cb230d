import { html, type Raw } from './html.js';
import { languageSwitch } from './i18n/language-switch.js';
import { ENGLISH, type Translator } from './i18n/translator.js';

export interface LayoutOptions {
  /** Site navigation (the developer area's menu): shown above the card, as a landmark. */
  nav?: Raw | undefined;
  /** A wide card for tables and dashboards; sign-in screens stay narrow. */
  wide?: boolean;
  /** A page's own style sheet from /assets, after the shared one (e.g. dashboard.css). */
  stylesheet?: string;
  /** The page's language (its `lang` and `dir`, the frame's words); English when not given. */
  t?: Translator | undefined;
  /** The page's own address (req.url): with it, the language switch is shown at the foot of the card. */
  switchUrl?: string | undefined;
}

/** The page frame shared by every hosted page: plain, accessible, mobile-first, in the page's language. */
export function layout(title: string, body: Raw, opts: LayoutOptions = {}): string {
  const t = opts.t ?? ENGLISH;
  return html`<!doctype html>
<html lang="${t.locale}" dir="${t.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Lanyard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/lanyard.css">
${opts.stylesheet ? html`<link rel="stylesheet" href="/assets/${opts.stylesheet}">
` : ''}<script src="/assets/countdown.js" defer></script>
${opts.nav ? html`<script src="/assets/strip.js" defer></script>
` : ''}</head>
<body>
${opts.nav ? html`<a class="skip-link" href="#main">${t.t('layout.skip')}</a>
${opts.nav}` : ''}
<main class="card${opts.wide ? ' wide' : ''}" id="main">
${opts.nav ? '' : html`<p class="brand" aria-hidden="true">🪪 ${t.t('layout.brand')}</p>`}
${body}
${opts.switchUrl !== undefined ? languageSwitch(t, opts.switchUrl) : ''}
</main>
</body>
</html>
`.value;
}
