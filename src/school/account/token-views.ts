import type { StaffApiToken } from '../../../adapters/store.js';
import { html } from '../../web/html.js';
import { personalTokenRevokeBody, personalTokensBody, type PersonalTokensView } from '../../web/area/personal-tokens-page.js';
import type { StaffSignedIn } from '../area.js';
import { schoolLayout } from '../views/school-layout.js';
import { M } from './account-messages.js';
import { ACCOUNT_PATH } from './account-view.js';
import type { ConfirmWith } from './confirmation.js';
import { confirmField, signInAgainButton } from './confirm-field.js';

export const TOKENS_PATH = `${ACCOUNT_PATH}/tokens`;

export interface TokensView extends Omit<PersonalTokensView, 'csrf' | 'username'> {
  who: StaffSignedIn;
  /** With `expiresAt` when each stops working (an earlier end of the person's sessions included). */
  tokens: StaffApiToken[];
  confirm: ConfirmWith;
}

/** /school/account/tokens: the person's tokens, and a form to make one (which asks who it is again). */
export function tokensPage(v: TokensView): string {
  const error = v.fields?.find((f) => f.path === 'confirm')?.message;
  return schoolLayout(M.tokensTitle, personalTokensBody({ ...v, csrf: v.who.csrf, username: v.who.account.user.username }, {
    title: M.tokensTitle,
    path: TOKENS_PATH,
    back: ACCOUNT_PATH,
    intro: html`${M.tokensIntro} Send it as <code>Authorization: Bearer &lt;token&gt;</code>. ${M.tokensEnd}`,
    none: M.tokensNone,
    labelHint: M.tokenLabelHint,
    verb: 'Make',
    confirm: v.confirm === 'sign-in-again' ? { instead: signInAgainButton(v.who.csrf, TOKENS_PATH) } : { field: confirmField(v.confirm, error) },
  }), v.who, undefined, 'account');
}

/** What revoking means, then the button. */
export function tokenRevokePage(who: StaffSignedIn, token: StaffApiToken): string {
  const { title, body } = personalTokenRevokeBody(token, who.csrf, { path: TOKENS_PATH, warning: M.tokenRevokeWarning });
  return schoolLayout(title, body, who, undefined, 'account');
}
