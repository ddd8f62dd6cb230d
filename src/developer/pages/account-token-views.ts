import { reconfirmationFactor } from '../reconfirmation.js';
import type { DeveloperApiToken } from '../../../adapters/store.js';
import { COPY_SCRIPT, copyable, csrfField, field, flash, postButton, problemsSummary } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_LABEL_MAX, API_TOKEN_MAX_DAYS } from '../api-tokens.js';
import { PASSWORD_MAX_LENGTH } from '../developer-password.js';
import type { FieldProblem } from '../errors.js';
import { M } from './account-messages.js';
import { fieldError } from './account-page.js';
import { credentialCards, credentialFacts } from '../../web/credential-cards.js';
import { developerLayout, type SignedIn } from './signed-in.js';

export interface TokensView {
  who: SignedIn;
  tokens: DeveloperApiToken[];
  now: Date;
  /** A token just created: shown this once. */
  created?: string | undefined;
  flash?: string | undefined;
  fields?: FieldProblem[];
  label?: string;
  days?: string;
  /** A message about the whole form (a wait after too many wrong tries). */
  message?: string | Raw | undefined;
}

/**
 * Creating a token asks for the password again, or a fresh code when two-step sign-in is on (the field's
 * name; docs/developer-area.md → Getting an account): a stolen session alone cannot make a token.
 */
export const confirmationField = (who: SignedIn): 'code' | 'currentPassword' =>
  (reconfirmationFactor(who.account) === 'code' ? 'code' : 'currentPassword');

const revokePath = (t: DeveloperApiToken) => `/developer/account/tokens/${encodeURIComponent(t.id)}/revoke`;

export function tokensPage(v: TokensView): string {
  const fields = v.fields ?? [];
  return developerLayout(M.tokensTitle, html`
<h1>${M.tokensTitle}</h1>
${flash(v.flash)}
${v.created ? html`<div class="reveal" id="new-token-box" role="status">
  <h2>${M.tokenCreatedTitle}</h2>
  <p>${M.tokenCreated}</p>
  ${copyable('new-token', v.created, 'the new token')}
</div>
${COPY_SCRIPT}` : ''}
<p class="note">${M.tokensIntro} Send it as <code>Authorization: Bearer &lt;token&gt;</code>; the API is described at
<a href="/developer/api/openapi.json">/developer/api/openapi.json</a>.</p>

<section aria-labelledby="tokens-heading" class="dev-section">
<h2 id="tokens-heading">Your tokens</h2>
${v.tokens.length === 0 ? html`<p class="empty-state">No API tokens yet: create one below for your scripts.</p>` : credentialCards('Your API tokens', v.now, v.tokens, {
    endsWith: (t) => `…${t.hint}`,
    revoke: (t) => html`<a class="button-link remove-link" href="${revokePath(t)}">Revoke<span class="visually-hidden"> the token ${t.label}</span></a>`,
  })}
</section>

<section aria-labelledby="create-heading" class="dev-section">
<h2 id="create-heading">Create a token</h2>
${problemsSummary(v.message, fields)}
<form method="post" action="/developer/account/tokens" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  <input type="text" name="username" value="${v.who.account.email}" autocomplete="username" hidden>
  ${field({ name: 'label', label: M.tokenLabelLabel, hint: M.tokenLabelHint, value: v.label, required: true, maxlength: API_TOKEN_LABEL_MAX,
    error: fieldError(fields, 'label') })}
  ${field({ name: 'expiresInDays', label: M.tokenDaysLabel, hint: M.tokenDaysHint, type: 'number', value: v.days ?? String(API_TOKEN_DEFAULT_DAYS), required: true,
    error: fieldError(fields, 'expiresInDays'), attrs: html`min="1" max="${API_TOKEN_MAX_DAYS}" step="1" inputmode="numeric"` })}
  ${confirmationField(v.who) === 'code'
    ? field({ name: 'code', label: M.tokenCodeLabel, hint: M.tokenCodeHint, required: true, autocomplete: 'one-time-code', maxlength: 6,
      error: fieldError(fields, 'code'), attrs: html`inputmode="numeric"` })
    : field({ name: 'currentPassword', label: M.tokenPasswordLabel, hint: M.tokenPasswordHint, type: 'password', required: true,
      autocomplete: 'current-password', maxlength: PASSWORD_MAX_LENGTH * 4, error: fieldError(fields, 'currentPassword') })}
  <button type="submit">Create token</button>
</form>
</section>
<p class="note"><a href="/developer/account">Back to your account</a></p>
`, v.who, 'account');
}

/** GET /developer/account/tokens/:id/revoke: what revoking means, then the button (as for an app's secret). */
export function tokenRevokePage(who: SignedIn, token: DeveloperApiToken): string {
  const title = `Revoke the token “${token.label}”?`;
  return developerLayout(title, html`
<h1>${title}</h1>
${credentialFacts(token, `…${token.hint}`)}
<p class="warning">${M.tokenRevokeWarning}</p>
<div class="form-actions">
  ${postButton(revokePath(token), who.csrf, 'Revoke the token', { danger: true })}
  <a href="/developer/account/tokens">Keep it</a>
</div>
`, who, 'account');
}
