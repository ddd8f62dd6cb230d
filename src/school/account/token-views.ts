import type { StaffApiToken } from '../../../adapters/store.js';
import { PERSONAL_TOKEN_DEFAULT_DAYS, PERSONAL_TOKEN_LABEL_MAX, PERSONAL_TOKEN_MAX_DAYS } from '../../accounts/personal-tokens.js';
import { COPY_SCRIPT, copyable, csrfField, field, flash, postButton, problemsSummary } from '../../web/components.js';
import { credentialCards, credentialFacts } from '../../web/credential-cards.js';
import { html, type Raw } from '../../web/html.js';
import type { StaffSignedIn } from '../area.js';
import { schoolLayout } from '../views/school-layout.js';
import { M } from './account-messages.js';
import { ACCOUNT_PATH } from './account-view.js';
import type { ConfirmWith } from './confirmation.js';
import { confirmField, signInAgainButton } from './confirm-field.js';

export const TOKENS_PATH = `${ACCOUNT_PATH}/tokens`;
export const revokePath = (t: StaffApiToken) => `${TOKENS_PATH}/${encodeURIComponent(t.id)}/revoke`;

export interface TokensView {
  who: StaffSignedIn;
  /** With `expiresAt` when each stops working (an earlier end of the person's sessions included). */
  tokens: StaffApiToken[];
  now: Date;
  confirm: ConfirmWith;
  /** A token just made: shown this once. */
  created?: string | undefined;
  flash?: string | undefined;
  fields?: { path: string; message: string }[];
  label?: string;
  days?: string;
  /** A message about the whole form (a wait after too many wrong tries). */
  message?: string | Raw | undefined;
}

const fieldError = (fields: { path: string; message: string }[], name: string) => fields.find((f) => f.path === name)?.message;

/** /school/account/tokens: the person's tokens, and a form to make one (which asks who it is again). */
export function tokensPage(v: TokensView): string {
  const fields = v.fields ?? [];
  return schoolLayout(M.tokensTitle, html`
<h1>${M.tokensTitle}</h1>
${flash(v.flash)}
${v.created ? html`<div class="reveal" id="new-token-box" role="status">
  <h2>${M.tokenCreatedTitle}</h2>
  <p>${M.tokenCreated}</p>
  ${copyable('new-token', v.created, 'the new token')}
</div>
${COPY_SCRIPT}` : ''}
<p class="note">${M.tokensIntro} Send it as <code>Authorization: Bearer &lt;token&gt;</code>. ${M.tokensEnd}</p>

<section aria-labelledby="tokens-heading" class="dev-section">
<h2 id="tokens-heading">Your tokens</h2>
${v.tokens.length === 0 ? html`<p class="empty-state">${M.tokensNone}</p>` : credentialCards('Your API tokens', v.now, v.tokens, {
    endsWith: (t) => `…${t.hint}`,
    revoke: (t) => html`<a class="button-link remove-link" href="${revokePath(t)}">Revoke<span class="visually-hidden"> the token ${t.label}</span></a>`,
  })}
</section>

<section aria-labelledby="create-heading" class="dev-section">
<h2 id="create-heading">Make a token</h2>
${v.confirm === 'sign-in-again' ? signInAgainButton(v.who.csrf, TOKENS_PATH) : html`${problemsSummary(v.message, fields)}
<form method="post" action="${TOKENS_PATH}" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  <input type="text" name="username" value="${v.who.account.user.username}" autocomplete="username" hidden>
  ${field({ name: 'label', label: M.tokenLabelLabel, hint: M.tokenLabelHint, value: v.label, required: true, maxlength: PERSONAL_TOKEN_LABEL_MAX,
    error: fieldError(fields, 'label') })}
  ${field({ name: 'expiresInDays', label: M.tokenDaysLabel, hint: M.tokenDaysHint, type: 'number', value: v.days ?? String(PERSONAL_TOKEN_DEFAULT_DAYS), required: true,
    error: fieldError(fields, 'expiresInDays'), attrs: html`min="1" max="${PERSONAL_TOKEN_MAX_DAYS}" step="1" inputmode="numeric"` })}
  ${confirmField(v.confirm, fieldError(fields, 'confirm'))}
  <button type="submit">Make token</button>
</form>`}
</section>
<p class="note"><a href="${ACCOUNT_PATH}">Back to your account</a></p>
`, v.who, undefined, 'account');
}

/** What revoking means, then the button. */
export function tokenRevokePage(who: StaffSignedIn, token: StaffApiToken): string {
  const title = `Revoke the token “${token.label}”?`;
  return schoolLayout(title, html`
<h1>${title}</h1>
${credentialFacts(token, `…${token.hint}`)}
<p class="warning">${M.tokenRevokeWarning}</p>
<div class="form-actions">
  ${postButton(revokePath(token), who.csrf, 'Revoke the token', { danger: true })}
  <a href="${TOKENS_PATH}">Keep it</a>
</div>
`, who, undefined, 'account');
}
