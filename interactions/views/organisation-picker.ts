import type { Organisation } from '../../adapters/store.js';
import { schoolResults } from '../../src/web/components.js';
import { html } from '../../src/web/html.js';
import type { Translator } from '../../src/web/i18n/translator.js';
import { layout } from '../../src/web/layout.js';

/** The page's language before any school is chosen (the switch's or the browser's) and its address, for the switch. */
export interface PickerFrame {
  t: Translator;
  url: string;
}

export function organisationPicker(uid: string, clientName: string, query: string, results: Organisation[], f: PickerFrame): string {
  const { t } = f;
  return layout(t.t('signIn.findSchool.title'), html`
<h1>${t.t('signIn.findSchool.heading')}</h1>
<p class="muted">${t.t('signIn.signingInTo', { app: clientName })}</p>
<form method="get" action="/interaction/${uid}" role="search">
  <label for="q">${t.t('signIn.schoolName')}</label>
  <input id="q" name="q" type="search" value="${query}" autocomplete="organization" ${query ? '' : 'autofocus'} required>
  <button type="submit">${t.t('signIn.search')}</button>
</form>
${schoolResults(query, results, (slug) => `/interaction/${uid}?org=${encodeURIComponent(slug)}`, t.t('signIn.noSchoolMatches', { query }), t)}
`, { t, switchUrl: f.url });
}
