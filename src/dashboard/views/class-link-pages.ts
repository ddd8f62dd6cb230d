import { CLASS_CODE_LENGTH } from '../../accounts/class-links.js';
import { ROUTES } from '../../routes.js';
import { csrfField, errorMessage } from '../../web/components.js';
import { html } from '../../web/html.js';
import type { Translator } from '../../web/i18n/translator.js';
import { layout } from '../../web/layout.js';

/**
 * The class-link entry's pages (docs/childrens-sign-in.md → Class links), in the pupil's language: the form to
 * type the code a teacher shows, and the page for a code that opens nothing. No JavaScript.
 */

/** "Type the class code": one big field; spaces, dashes and lower case are all fine. */
export function classCodePage(v: { t: Translator; url: string; csrf: string; error?: string | undefined }): string {
  const { t } = v;
  return layout(t.t('classLink.title'), html`<h1>${t.t('classLink.heading')}</h1>
${errorMessage(v.error)}
<form method="post" action="${ROUTES.classLink}" class="class-code-form" novalidate>
  ${csrfField(v.csrf)}
  <label for="class-code">${t.t('classLink.label')}</label>
  <p class="hint" id="class-code-hint">${t.t('classLink.hint')}</p>
  <input id="class-code" name="code" type="text" dir="ltr" class="help-code-input class-code-input" autocomplete="off" autocapitalize="characters"
    spellcheck="false" maxlength="${CLASS_CODE_LENGTH + 10}" required autofocus
    ${v.error ? html`aria-invalid="true" aria-describedby="class-code-hint form-error"` : html`aria-describedby="class-code-hint"`}>
  <button type="submit">${t.t('classLink.submit')}</button>
</form>`, { t, switchUrl: v.url });
}

/** A code that opens nothing (ended, revoked or mistyped): the same page for each, and a way to type it again. */
export function classLinkEndedPage(v: { t: Translator; url: string }): string {
  const { t } = v;
  return layout(t.t('classLink.ended.title'), html`<h1>${t.t('classLink.ended.heading')}</h1>
<p>${t.t('classLink.ended.text')}</p>
<p><a href="${ROUTES.classLink}">${t.t('classLink.again')}</a></p>`, { t, switchUrl: v.url });
}
