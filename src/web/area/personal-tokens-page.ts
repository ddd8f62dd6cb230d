import type { PersonalTokenRecord } from '../../accounts/personal-token-service.js';
import { PERSONAL_TOKEN_DEFAULT_DAYS, PERSONAL_TOKEN_LABEL_MAX, PERSONAL_TOKEN_MAX_DAYS } from '../../accounts/personal-tokens.js';
import { COPY_SCRIPT, copyable, csrfField, field, flash, postButton, problemsSummary } from '../components.js';
import { credentialCards, credentialFacts } from '../credential-cards.js';
import { html, type Raw } from '../html.js';

/** What a signed-in person's token page shows now (its list, a token just made, a refused form). */
export interface PersonalTokensView {
  csrf: string;
  /** The person's username, beside a password field for password managers. */
  username: string;
  /** Each with `expiresAt` when it stops working. */
  tokens: readonly PersonalTokenRecord[];
  now: Date;
  /** A token just made: shown this once. */
  created?: string | undefined;
  flash?: string | undefined;
  fields?: { path: string; message: string }[];
  label?: string | undefined;
  days?: string | undefined;
  /** A message about the whole form (a wait after too many wrong tries). */
  message?: string | Raw | undefined;
}

/** What differs between the areas' token pages. */
export interface PersonalTokensPage {
  title: string;
  /** The list's address (the form posts there; a token's revocation page is below it) and the account page's. */
  path: string;
  back: string;
  /** What the tokens are for and how they are sent. */
  intro: Raw;
  /** Said when there are none. */
  none: string;
  labelHint: string;
  /** Create or Make (a token). */
  verb: string;
  /** What asks who it is again: a field of the form, or what stands instead of the form (signing in again first). */
  confirm: { field: Raw | string } | { instead: Raw };
}

export const tokenRevokePath = (path: string, t: Pick<PersonalTokenRecord, 'id'>): string => `${path}/${encodeURIComponent(t.id)}/revoke`;

const fieldError = (fields: { path: string; message: string }[], name: string) => fields.find((f) => f.path === name)?.message;

/**
 * A signed-in area's personal API tokens (src/accounts/personal-token-service.ts): the one just made, shown
 * once with a copy button; the person's tokens as cards, each with a link to revoke it; and the form to make
 * one (a label, its days, and what confirms it is them). The body of the page, for the area's layout.
 */
export function personalTokensBody(v: PersonalTokensView, p: PersonalTokensPage): Raw {
  const fields = v.fields ?? [];
  return html`
<h1>${p.title}</h1>
${flash(v.flash)}
${v.created ? html`<div class="reveal" id="new-token-box" role="status">
  <h2>Your new API token</h2>
  <p>Copy it now: Lanyard keeps only a hash and cannot show it again.</p>
  ${copyable('new-token', v.created, 'the new token')}
</div>
${COPY_SCRIPT}` : ''}
<p class="note">${p.intro}</p>

<section aria-labelledby="tokens-heading" class="dev-section">
<h2 id="tokens-heading">Your tokens</h2>
${v.tokens.length === 0 ? html`<p class="empty-state">${p.none}</p>` : credentialCards('Your API tokens', v.now, v.tokens, {
    endsWith: (t) => `…${t.hint}`,
    revoke: (t) => html`<a class="button-link remove-link" href="${tokenRevokePath(p.path, t)}">Revoke<span class="visually-hidden"> the token ${t.label}</span></a>`,
  })}
</section>

<section aria-labelledby="create-heading" class="dev-section">
<h2 id="create-heading">${p.verb} a token</h2>
${'instead' in p.confirm ? p.confirm.instead : html`${problemsSummary(v.message, fields)}
<form method="post" action="${p.path}" class="dev-form" novalidate>
  ${csrfField(v.csrf)}
  <input type="text" name="username" value="${v.username}" autocomplete="username" hidden>
  ${field({ name: 'label', label: 'Label', hint: p.labelHint, value: v.label, required: true, maxlength: PERSONAL_TOKEN_LABEL_MAX,
    error: fieldError(fields, 'label') })}
  ${field({ name: 'expiresInDays', label: 'Valid for (days)', hint: `From 1 to ${PERSONAL_TOKEN_MAX_DAYS} days; ${PERSONAL_TOKEN_DEFAULT_DAYS} if left as it is.`,
    type: 'number', value: v.days ?? String(PERSONAL_TOKEN_DEFAULT_DAYS), required: true,
    error: fieldError(fields, 'expiresInDays'), attrs: html`min="1" max="${PERSONAL_TOKEN_MAX_DAYS}" step="1" inputmode="numeric"` })}
  ${p.confirm.field}
  <button type="submit">${p.verb} token</button>
</form>`}
</section>
<p class="note"><a href="${p.back}">Back to your account</a></p>
`;
}

/** What revoking a token means, then the button: the page's title and body, for the area's layout. */
export function personalTokenRevokeBody(token: PersonalTokenRecord, csrf: string, p: { path: string; warning: string }): { title: string; body: Raw } {
  const title = `Revoke the token “${token.label}”?`;
  return {
    title,
    body: html`
<h1>${title}</h1>
${credentialFacts(token, `…${token.hint}`)}
<p class="warning">${p.warning}</p>
<div class="form-actions">
  ${postButton(tokenRevokePath(p.path, token), csrf, 'Revoke the token', { danger: true })}
  <a href="${p.path}">Keep it</a>
</div>
`,
  };
}
