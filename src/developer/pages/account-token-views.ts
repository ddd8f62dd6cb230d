import { reconfirmationFactor } from '../reconfirmation.js';
import type { DeveloperApiToken } from '../../../adapters/store.js';
import { field } from '../../web/components.js';
import { html } from '../../web/html.js';
import { personalTokenRevokeBody, personalTokensBody, type PersonalTokensView } from '../../web/area/personal-tokens-page.js';
import { PASSWORD_MAX_LENGTH } from '../developer-password.js';
import type { FieldProblem } from '../errors.js';
import { M } from './account-messages.js';
import { fieldError } from './account-page.js';
import { developerLayout, type SignedIn } from './signed-in.js';

const TOKENS_PATH = '/developer/account/tokens';

export interface TokensView extends Omit<PersonalTokensView, 'csrf' | 'username'> {
  who: SignedIn;
  tokens: DeveloperApiToken[];
  fields?: FieldProblem[];
}

/**
 * Creating a token asks for the password again, or a fresh code when two-step sign-in is on (the field's
 * name; docs/developer-area.md → Getting an account): a stolen session alone cannot make a token.
 */
export const confirmationField = (who: SignedIn): 'code' | 'currentPassword' =>
  (reconfirmationFactor(who.account) === 'code' ? 'code' : 'currentPassword');

export function tokensPage(v: TokensView): string {
  const fields = v.fields ?? [];
  const confirm = confirmationField(v.who) === 'code'
    ? field({ name: 'code', label: M.tokenCodeLabel, hint: M.tokenCodeHint, required: true, autocomplete: 'one-time-code', maxlength: 6,
      error: fieldError(fields, 'code'), attrs: html`inputmode="numeric"` })
    : field({ name: 'currentPassword', label: M.tokenPasswordLabel, hint: M.tokenPasswordHint, type: 'password', required: true,
      autocomplete: 'current-password', maxlength: PASSWORD_MAX_LENGTH * 4, error: fieldError(fields, 'currentPassword') });
  return developerLayout(M.tokensTitle, personalTokensBody({ ...v, csrf: v.who.csrf, username: v.who.account.email }, {
    title: M.tokensTitle,
    path: TOKENS_PATH,
    back: '/developer/account',
    intro: html`${M.tokensIntro} Send it as <code>Authorization: Bearer &lt;token&gt;</code>; the API is described at
<a href="/developer/api/openapi.json">/developer/api/openapi.json</a>.`,
    none: 'No API tokens yet: create one below for your scripts.',
    labelHint: M.tokenLabelHint,
    verb: 'Create',
    confirm: { field: confirm },
  }), v.who, 'account');
}

/** GET /developer/account/tokens/:id/revoke: what revoking means, then the button (as for an app's secret). */
export function tokenRevokePage(who: SignedIn, token: DeveloperApiToken): string {
  const { title, body } = personalTokenRevokeBody(token, who.csrf, { path: TOKENS_PATH, warning: M.tokenRevokeWarning });
  return developerLayout(title, body, who, 'account');
}
