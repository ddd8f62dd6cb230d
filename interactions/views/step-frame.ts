import type { Organisation } from '../../adapters/store.js';
import { offersHelpCodes } from '../../src/accounts/help-codes.js';
import { csrfField } from '../../src/web/components.js';
import { html, type Raw } from '../../src/web/html.js';
import { isolated, type Translator } from '../../src/web/i18n/translator.js';
import { layout, type LayoutOptions } from '../../src/web/layout.js';

/** What every login-method screen shows around its form. */
export interface StepView {
  uid: string;
  csrf: string;
  clientName: string;
  /** "Cancel and go back to <app>", or "Cancel" on Lanyard's own pages (login-step.ts). */
  cancelLabel: string;
  organisation: Organisation;
  canChangeOrganisation: boolean;
  /** The screen's language (give it to layout() with `url` as switchUrl: the language switch). */
  t: Translator;
  /** This screen's address for the language switch: a GET's as asked, its GET address after a POST (login-step.ts switchAddress). */
  url: string;
}

export const stepHeading = (v: StepView, prompt: string) => html`
<h1>${v.organisation.name}</h1>
<p class="muted">${v.t.t('signIn.signingInTo', { app: v.clientName })}</p>
<p class="prompt">${prompt}</p>`;

/**
 * A step's page in its language, with the language switch (the school's name is data: the title names it as it
 * is); `opts` for a page's own width or style sheet.
 */
export const stepPage = (v: StepView, body: Raw, opts: Omit<LayoutOptions, 't' | 'switchUrl'> = {}): string =>
  layout(v.t.t('signIn.title', { school: v.organisation.name }), body, { ...opts, t: v.t, switchUrl: v.url });

export const hiddenFields = (v: StepView) => html`
  ${csrfField(v.csrf)}
  <input type="hidden" name="org" value="${v.organisation.slug}">`;

export { errorMessage, invalidIf } from '../../src/web/components.js';

/** A name inside a sentence, isolated from the text around it (src/web/i18n/translator.ts). */
export { isolated };

/** The pupil whose name tile was tapped (class sign-in: interactions/class-tiles.ts), on the screens for them. */
export interface TappedPupil { id: string; name: string }

/**
 * Other ways to sign in, a help code (docs/childrens-sign-in.md → Help codes: on every method's screen, since a
 * school with one method skips the chooser), another school, and cancel (back to the app with access_denied).
 * Below class sign-in's name tiles (`tiles`: docs/childrens-sign-in.md → Class sign-in), the ordinary chooser; a
 * tapped pupil's screens have their own (pupil-footer.ts).
 */
export function stepFooter(v: StepView, current: string): Raw {
  const org = encodeURIComponent(v.organisation.slug);
  const { t } = v;
  const changeSchool = v.canChangeOrganisation
    ? html`<a href="/interaction/${v.uid}?change=1">${t.t('signIn.notThisSchool', { school: v.organisation.name })}</a>` : '';
  if (current === 'tiles') {
    return html`
<nav class="step-links" aria-label="${t.t('signIn.otherOptions')}">
  <a href="/interaction/${v.uid}?org=${org}&amp;way=any">${t.t('classSignIn.otherWay')}</a>
  ${changeSchool}
</nav>
${cancelForm(v, current)}`;
  }
  const others = current === 'help_code' || (current !== 'chooser' && v.organisation.login.methods.length > 1);
  const helpCode = current !== 'chooser' && current !== 'help_code' && offersHelpCodes(v.organisation);
  return html`
<nav class="step-links" aria-label="${t.t('signIn.otherOptions')}">
  ${others ? html`<a href="/interaction/${v.uid}?org=${org}">${t.t('signIn.anotherWay')}</a>` : ''}
  ${helpCode ? html`<a href="/interaction/${v.uid}/help-code?org=${org}">${t.t('signIn.haveHelpCode')}</a>` : ''}
  ${changeSchool}
</nav>
${cancelForm(v, current)}`;
}

/** The screens' way out: back to the app, which receives access_denied (interactions/cancel.ts). */
export const cancelForm = (v: StepView, current: string) => html`<form method="post" action="/interaction/${v.uid}/cancel" class="secondary" data-step="${current}">
  ${csrfField(v.csrf)}
  <button type="submit" class="link">${v.cancelLabel}</button>
</form>`;
