import { slashed } from '../web/components.js';
import { html } from '../web/html.js';
import type { DocSection } from './section.js';

export const accountSection: DocSection = {
  id: 'account',
  title: 'Getting a developer account',
  body: () => html`
<p>Developer accounts are separate from school accounts: an email address, a display name and a password,
and optionally a second factor. Anyone who controls an app’s callback URLs could receive its users’ codes, so
these accounts are treated as privileged: sessions expire, every change to an app is recorded in its history,
and repeated wrong passwords are slowed down as on every Lanyard sign-in.</p>
<ul>
  <li><strong>By invitation</strong> (the default): the people who run Lanyard send you a single-use link,
  valid for 7 days, of the form ${slashed('/developer/invitations/<token>')}. Open it, choose your display
  name and password, and you are signed in.</li>
  <li><strong>By signing up</strong>, when the operators have opened sign-up (<code>developer_signup: "open"</code>):
  <a href="/developer/sign-up">/developer/sign-up</a>. Otherwise, ask them for an invitation.</li>
</ul>
<p>Your password needs at least 15 characters (a few unrelated words make a good one) and must not be your
email or name. Sign in at <a href="/developer/sign-in">/developer/sign-in</a>; a session ends after 30 minutes
without a request and 12 hours after you signed in. On <a href="/developer/account">your account
page</a> you can change your password and turn on a second factor: any authenticator app (RFC 6238 TOTP, six
digits every 30 seconds), with one-time recovery codes for when the phone is lost. Keep the recovery codes
somewhere safe; each works once.</p>
`,
};
