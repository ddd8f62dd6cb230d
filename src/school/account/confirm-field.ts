import { PASSWORD_MAX_LENGTH } from '../../accounts/user-password.js';
import { field, postButton } from '../../web/components.js';
import { html, type Raw } from '../../web/html.js';
import type { ConfirmWith } from './confirmation.js';
import { M } from './account-messages.js';

export const SIGN_IN_AGAIN_PATH = '/school/account/sign-in-again';

/**
 * The field of a form that asks who it is again (confirmation.ts), named `confirm`; or, when nothing could be
 * typed, the words that say so. The way to sign in again is a form of its own (signInAgainButton), outside.
 */
export function confirmField(how: ConfirmWith, error?: string): Raw | string {
  switch (how) {
    case 'code':
      return field({ name: 'confirm', label: M.confirmCodeLabel, hint: M.confirmCodeHint, required: true, autocomplete: 'one-time-code', maxlength: 12,
        error, attrs: html`inputmode="numeric"` });
    case 'password':
      return field({ name: 'confirm', label: M.confirmWithPasswordLabel, type: 'password', required: true, autocomplete: 'current-password',
        maxlength: PASSWORD_MAX_LENGTH * 4, error });
    case 'code-or-password':
      return field({ name: 'confirm', label: M.confirmCodeOrPasswordLabel, type: 'password', required: true, autocomplete: 'current-password',
        maxlength: PASSWORD_MAX_LENGTH * 4, error });
    case 'recent':
      return html`<p class="hint">${M.confirmRecent}</p>`;
    case 'sign-in-again':
      return '';
  }
}

/** Signing in again to confirm it is them, coming back to `next` (a page of the account). */
export const signInAgainButton = (csrf: string, next: string): Raw => html`<p>${M.confirmSignInAgain}</p>
<div class="dev-actions">${postButton(SIGN_IN_AGAIN_PATH, csrf, M.signInAgainButton, { primary: true, hidden: { next } })}</div>`;
