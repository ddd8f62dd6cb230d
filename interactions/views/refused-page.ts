import type { Organisation } from '../../adapters/store.js';
import type { Refusal } from '../../src/clients/app-availability.js';
import { SANDBOX_SLUG } from '../../src/config/reserved.js';
import { csrfField, forAdults } from '../../src/web/components.js';
import { html, type Raw } from '../../src/web/html.js';
import type { Translator } from '../../src/web/i18n/translator.js';
import { layout } from '../../src/web/layout.js';
import type { MessageKey } from '../../src/web/messages/catalogue.js';

/** What the refusal page may offer besides going back: another school, when the user chose this one. */
export interface RefusalContext {
  level: 'info' | 'warn';
  accountId?: string | undefined;
  organisation?: Organisation | undefined;
  canChange?: boolean;
}

export interface RefusedView extends RefusalContext {
  uid: string;
  csrf: string;
  clientName: string;
  reason: Refusal;
  /** The page's language (the school's, the switch's or the browser's) and its address, for the switch. */
  t: Translator;
  url: string;
}

/**
 * A message whose arguments are code (`organisation=sandbox`): formatted with stand-ins, then cut at them, so
 * the words come from the catalogue and the code stays <code>, escaped, in any language's word order.
 */
function withCode(t: Translator, key: MessageKey, code: Record<string, string>): Raw {
  const names = Object.keys(code);
  const text = t.t(key, Object.fromEntries(names.map((n, i) => [n, `\u0000${i}\u0000`])));
  return html`${text.split(/\u0000(\d+)\u0000/).map((piece, i) => (i % 2 ? html`<code>${code[names[Number(piece)]!]}</code>` : piece))}`;
}

/**
 * The page for a sign-in no one may complete (answered 403): a development app asked for another school, a
 * live app asked for the sandbox school, or the user's school does not use the app. Nothing is signed in,
 * and the way on is back to the app, which receives `access_denied` (interactions/cancel.ts), or, when
 * the user picked the school, another school. The app's and the school's names are data, never translated.
 */
export function refusedPage(v: RefusedView): string {
  const { t, clientName: app, reason } = v;
  const back = html`<form method="post" action="/interaction/${v.uid}/cancel">
  ${csrfField(v.csrf)}
  <button type="submit">${t.t('refusal.goBack', { app })}</button>
</form>`;
  const askAdult = html`<p class="muted">${t.t('refusal.askAdult')}</p>`;
  const frame = { t, switchUrl: v.url };
  if (reason === 'not_connected') {
    const school = v.organisation?.name ?? t.t('refusal.yourSchool');
    return layout(t.t('refusal.notConnected.title'), html`
<h1>${t.t('refusal.notConnected.heading')}</h1>
<p>${t.t(v.accountId ? 'refusal.notConnected.textForAccount' : 'refusal.notConnected.text', { app, school })}</p>
${askAdult}
${back}
${v.canChange ? html`<p><a href="/interaction/${v.uid}?change=1">${t.t('signIn.notThisSchool', { school })}</a></p>` : ''}
${forAdults(t.t('refusal.forIt'), html`<p>${t.t(v.accountId ? 'refusal.notConnected.adultsForAccount' : 'refusal.notConnected.adults', { app, school })}</p>`, reason, t)}
`, frame);
  }
  if (reason === 'sandbox_school') {
    return layout(t.t('refusal.sandbox.title'), html`
<h1>${t.t('refusal.sandbox.title')}</h1>
<p>${t.t('refusal.sandbox.text')}</p>
${back}
${forAdults(t.t('refusal.forDevelopers'), html`<p>${t.t('refusal.sandbox.adults')}</p>`, reason, t)}
`, frame);
  }
  return layout(t.t('refusal.development.title', { app }), html`
<h1>${t.t('refusal.development.title', { app })}</h1>
<p>${t.t('refusal.development.text', { app })}</p>
${askAdult}
${back}
${forAdults(t.t('refusal.forAppDevelopers'), html`<p>${t.t('refusal.development.adults')} ${
  withCode(t, 'refusal.development.adultsHow', { parameter: 'organisation', value: `organisation=${SANDBOX_SLUG}` })}</p>`, reason, t)}
`, frame);
}
