import { randomBytes } from 'node:crypto';
import type { StoredClient } from '../../../adapters/store.js';
import { codeBlock } from '../../web/components.js';
import { ROUTES } from '../../routes.js';
import { html, type Raw } from '../../web/html.js';
import type { SandboxCredentials, SandboxUserCredentials } from '../sandbox.js';
import { developerLayout, type SignedIn } from './signed-in.js';
import { COPY_SCRIPT, slashed } from '../../web/components.js';

export interface SandboxView {
  who: SignedIn;
  sandbox: SandboxCredentials;
  /** The developer's apps (to show ready-made test links for the ones with a callback URL). */
  apps: StoredClient[];
  issuer: string;
}

/** A value with a copy button (src/web/public/copy.js shows it when the clipboard can be used). */
const copyable = (id: string, value: string) => html`<code id="${id}" class="sandbox-secret">${value}</code>
<button type="button" class="copy-button" data-copy="${id}" hidden>Copy<span class="visually-hidden"> ${id.replace(/-/g, ' ')}</span></button>`;

/** The emoji password in order: big pictures, each with the name a screen reader (and a person) says. */
const emojiPassword = (u: SandboxUserCredentials) => html`<ol class="sandbox-emoji" aria-label="Emoji password of ${u.username}, in order">
${u.emoji!.map((e) => html`<li><span class="sandbox-glyph" aria-hidden="true">${e.glyph}</span><span class="sandbox-emoji-name">${e.name}</span></li>`)}
</ol>`;

const badge = (u: SandboxUserCredentials) => html`<figure class="sandbox-badge">
  <img src="${u.badge!.qrDataUrl}" width="264" height="264" alt="QR code of ${u.givenName} ${u.familyName}'s magic badge">
  <figcaption><span class="sandbox-caption">Badge code</span> ${copyable(`badge-${u.username}`, u.badge!.code)}</figcaption>
</figure>
<p class="hint">Hold this QR code up to the camera on the badge screen (from a phone, a second screen or a print of this
page), upload a photo of it, or type the code.</p>`;

function userCard(u: SandboxUserCredentials): Raw {
  return html`<section class="sandbox-user" aria-labelledby="user-${u.username}">
<h3 id="user-${u.username}">${u.role}</h3>
<dl class="sandbox-facts">
  <dt>Name</dt><dd>${u.givenName} ${u.familyName} <span class="muted">(type <code>${u.type}</code>, sub <code>${u.id}</code>)</span></dd>
  <dt>Username</dt><dd>${copyable(`username-${u.username}`, u.username)}</dd>
  ${u.password ? html`<dt>Password</dt><dd>${copyable(`password-${u.username}`, u.password)}</dd>` : ''}
  ${u.emoji ? html`<dt>Emoji password</dt><dd>${emojiPassword(u)}</dd>` : ''}
  ${u.badge ? html`<dt>Magic badge</dt><dd>${badge(u)}</dd>` : ''}
</dl>
</section>`;
}

/** An authorization request a developer can open as it is (a fresh nonce and state on every view). */
function authorizeUrl(issuer: string, clientId: string, redirectUri: string): string {
  const url = new URL(ROUTES.authorization, issuer);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', 'openid');
  url.searchParams.set('nonce', randomBytes(16).toString('base64url'));
  url.searchParams.set('state', randomBytes(16).toString('base64url'));
  url.searchParams.set('organisation', 'sandbox');
  return url.toString();
}

function tryLinks(v: SandboxView): Raw {
  const ready = v.apps.filter((a) => a.redirectUris.length > 0);
  if (!ready.length) {
    return html`<p>None of your apps has a callback URL yet. <a href="/developer/apps/new">Register an app</a> (or open
one of <a href="/developer">your apps</a>) and add a callback URL: this page then shows a ready-made test link for it.</p>`;
  }
  return html`<ul class="sandbox-try">${ready.map((a) => {
    const url = authorizeUrl(v.issuer, a.clientId, a.redirectUris[0]!);
    return html`<li><a href="${url}">Test sign-in to ${a.name}</a> <span class="muted">(${a.status === 'live' ? 'live' : 'in development'};
returns to ${slashed(a.redirectUris[0]!)})</span></li>`;
  })}</ul>`;
}

function walkthrough(v: SandboxView): Raw {
  const { slug } = v.sandbox.organisation;
  const example = new URL(ROUTES.authorization, v.issuer);
  const token = new URL(ROUTES.token, v.issuer);
  return html`<h2 id="how-to-test">How to test</h2>
<ol class="sandbox-steps">
  <li><a href="/developer/apps/new">Register your app</a>, add a callback URL (http is fine on
  <code>localhost</code>) and create a client secret.</li>
  <li>Send the browser to the authorization endpoint with the school’s slug:
  ${codeBlock(`${example.toString()}?client_id=YOUR_CLIENT_ID
  &redirect_uri=YOUR_CALLBACK_URL&response_type=code&scope=openid
  &nonce=A_FRESH_RANDOM_VALUE&state=A_FRESH_RANDOM_VALUE&organisation=${slug}`, 'An authorization request for the sandbox school')}
  An app in development goes straight to this school even without <code>organisation</code>, and it cannot sign
  in anyone else. ${tryLinks(v)}</li>
  <li>Sign in as one of the test users below: the emoji pupil taps their pictures, the badge pupil shows their badge
  to the camera, the others type their password.</li>
  <li>Exchange the code from your callback for tokens, with HTTP Basic client authentication:
  ${codeBlock(`curl -u "YOUR_CLIENT_ID:YOUR_CLIENT_SECRET" ${token.toString()} \\
  -d grant_type=authorization_code -d code=THE_CODE \\
  --data-urlencode redirect_uri=YOUR_CALLBACK_URL`, 'The token request with curl')}
  Check the ID token (signature from the key set, <code>iss</code>, <code>aud</code>, <code>exp</code>,
  <code>nonce</code>): <a href="/docs#id-token">the guide</a> shows how.</li>
  <li>When it works, ask for your app to go live from its page. Until an operator approves it, it keeps signing in
  only this school.</li>
</ol>`;
}

/** GET /developer/sandbox: the sandbox school's test users and their credentials, and how to test with them. */
export function sandboxPage(v: SandboxView): string {
  const { organisation } = v.sandbox;
  return developerLayout('Sandbox school', html`<div class="sandbox-page">
<h1>Sandbox school</h1>
<p>Every app starts in development, and an app in development signs in only the test users of
<strong>${organisation.name}</strong>, so you can try the whole flow, emoji passwords and magic badges
included, before any real child is involved.</p>
<p class="warning">These are test credentials, shown to every developer. They sign in only to this sandbox school;
never give its users real data.</p>
<dl class="sandbox-facts">
  <dt>School</dt><dd>${organisation.name}</dd>
  <dt>Slug</dt><dd><code>${organisation.slug}</code> <span class="muted">(the <code>organisation</code> parameter)</span></dd>
  <dt>Organisation id</dt><dd><code>${organisation.id}</code></dd>
</dl>
${walkthrough(v)}
<h2 id="test-users">Test users</h2>
<div class="sandbox-users">
${v.sandbox.users.map(userCard)}
</div>
${COPY_SCRIPT}
</div>`, v.who, 'sandbox');
}
