import { COPY_SCRIPT, csrfField, field } from '../../web/components.js';
import { html } from '../../web/html.js';
import { groupedSecret } from '../../accounts/totp.js';
import { M } from './account-messages.js';
import { developerLayout, type SignedIn } from './signed-in.js';

export interface TotpSetupView {
  who: SignedIn;
  secret: string;
  qrDataUrl: string;
  error?: string | undefined;
}

/** The secret as a QR code and as text, and the code that proves the app has it. */
export function totpSetupPage(v: TotpSetupView): string {
  return developerLayout(M.totpSetupTitle, html`
<h1>${M.totpSetupTitle}</h1>
<ol class="dev-steps">
<li><p>${M.totpSetupIntro}</p>
<img class="dev-qr" src="${v.qrDataUrl}" width="232" height="232" alt="QR code holding your two-step sign-in key (the same key is written out below)"></li>
<li><p>Cannot scan? Type this key into the app instead (time-based, 6 digits, every 30 seconds):</p>
<p><code class="dev-secret" id="totp-secret">${groupedSecret(v.secret)}</code>
<button type="button" class="secondary-button dev-copy" data-copy="totp-secret" hidden>Copy</button></p></li>
<li>
<form method="post" action="/developer/account/totp" class="dev-form" novalidate>
  ${csrfField(v.who.csrf)}
  ${field({ name: 'code', label: 'The 6-digit code your app shows', required: true, autocomplete: 'one-time-code', maxlength: 12, autofocus: !!v.error,
    error: v.error, attrs: html`inputmode="numeric" pattern="[0-9 ]*"` })}
  <button type="submit">Turn on two-step sign-in</button>
</form></li>
</ol>
<p class="note"><a href="/developer/account">Cancel</a></p>
${COPY_SCRIPT}
`, v.who, 'account');
}

/** The recovery codes, this once. */
export function recoveryCodesPage(who: SignedIn, codes: string[]): string {
  return developerLayout(M.recoveryTitle, html`
<h1>${M.recoveryTitle}</h1>
<p role="status" class="warning">${M.recoveryIntro}</p>
<pre class="dev-codes" id="recovery-codes">${codes.join('\n')}</pre>
<p class="dev-actions"><button type="button" class="secondary-button dev-copy" data-copy="recovery-codes" hidden>Copy the codes</button>
<button type="button" class="secondary-button dev-copy" data-print hidden>Print the codes</button></p>
<p class="note"><a href="/developer/account">Back to your account</a></p>
${COPY_SCRIPT}
`, who, 'account');
}
