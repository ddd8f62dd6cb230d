import { SANDBOX_SLUG } from '../config/reserved.js';
import { html } from '../web/html.js';
import { codeBlock } from '../web/components.js';
import { type DocSection } from './section.js';

export const sandboxSection: DocSection = {
  id: 'sandbox',
  title: 'Testing in the sandbox school',
  body: ({ issuer }) => html`
<p>Every app starts <strong>in development</strong>. An app in development can sign in only the users of the
sandbox school (slug <code>${SANDBOX_SLUG}</code>), a test school Lanyard provides for developers, so you can
try the whole flow — emoji passwords and magic badges included — before any real child is involved. Its test
users are:</p>
<ul>
  <li>a teacher (username and password, with an email address);</li>
  <li>a pupil with an emoji password (six pictures, tapped in order);</li>
  <li>a pupil with a magic badge (a QR code: hold it up to the camera, from a phone, a second screen or a print);</li>
  <li>a pupil with a password (with a matched Google account);</li>
  <li>a school admin (username and password).</li>
</ul>
<p>Their credentials are on <a href="/developer/sandbox">the sandbox page</a> of the developer area (signed in),
and in the developer API. They are test credentials, shared by every developer: never give these users real
data.</p>
${codeBlock(`curl -H "Authorization: Bearer $LANYARD_TOKEN" ${issuer}/developer/api/sandbox`, 'The sandbox credentials from the developer API')}
<p>An app in development goes straight to the sandbox school, with or without
<code>organisation=${SANDBOX_SLUG}</code>. Naming another school shows "This app is still in development: only
the sandbox school can sign in to it", and a browser already signed in to another school is asked to sign in
again: no code is ever issued for a real school’s user. The other way round too: the sandbox school’s users
sign in only to apps in development, never to a live app.</p>
`,
};
