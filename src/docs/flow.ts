import { NONCE_MAX_LENGTH, STATE_MAX_LENGTH } from '../provider/authorization-params.js';
import { AUTHORIZE_FORM_LIMIT } from '../provider/authorize-post.js';
import { ROUTES } from '../routes.js';
import { TTL } from '../provider/ttl.js';
import { breakableCode, slashed } from '../web/components.js';
import { html } from '../web/html.js';
import { codeBlock } from '../web/components.js';
import { type DocSection, docsTable } from './section.js';

/** A lifetime in words: "10 minutes", "one hour", "24 hours", "30 days". */
const duration = (s: number) => (s === 3600 ? 'one hour'
  : s % 86400 === 0 && s > 86400 ? `${s / 86400} days`
    : s % 3600 === 0 ? `${s / 3600} hours` : `${s / 60} minutes`);

export const flowSection: DocSection = {
  id: 'flow',
  title: 'The sign-in flow',
  body: ({ issuer }) => html`
<p>The Authorization Code flow, in four steps: your app sends the browser to Lanyard, the user signs in, Lanyard
sends the browser back to your callback URL with a code, and your server exchanges the code for tokens.</p>

<h3 id="authorize">1. Send the browser to the authorization endpoint</h3>
${codeBlock(`${issuer}${ROUTES.authorization}?client_id=YOUR_CLIENT_ID
  &redirect_uri=https%3A%2F%2Fapp.example.com%2Fauth%2Fcallback
  &response_type=code
  &scope=openid
  &state=A_FRESH_RANDOM_VALUE
  &nonce=ANOTHER_FRESH_RANDOM_VALUE
  &organisation=sandbox`, 'An authorization request (one line in practice)')}
${docsTable('Authorization request parameters', ['Parameter', 'Required', 'Meaning'], [
  [html`<code>client_id</code>`, 'yes', 'Your app’s client ID.'],
  [html`<code>redirect_uri</code>`, 'yes', 'One of the app’s callback URLs, exactly as registered.'],
  [html`<code>response_type</code>`, 'yes', html`<code>code</code>.`],
  [html`<code>scope</code>`, 'for an ID token', html`Include <code>openid</code> to receive an <code>id_token</code>. Sent without any scope, the app’s <a href="#default-scopes">default scopes</a> apply.`],
  [html`<code>state</code>`, 'recommended', html`A fresh random value you check on the callback (at most ${STATE_MAX_LENGTH} characters): it ties the callback to the browser that started the sign-in.`],
  [html`<code>nonce</code>`, 'recommended', html`A fresh random value (at least 32 bytes of randomness, percent-encoded, at most ${NONCE_MAX_LENGTH} characters). It comes back unchanged as the ID token’s <code>nonce</code> claim; check it. Not a timestamp, counter or user id.`],
  [html`<code>organisation</code>`, 'no', html`The school’s slug (or id): the user signs in to that school and skips the school picker. The sandbox school’s slug is <code>sandbox</code>.`],
  [html`<code>code_challenge</code>, <code>code_challenge_method</code>`, 'no', html`PKCE (RFC 7636) with <code>S256</code>; then send <code>code_verifier</code> with the token request. Recommended on top of the client secret.`],
])}
<p>An app may also send these parameters as a form <code>POST</code> to the same address (OpenID Connect Core
§3.1.2.1). Lanyard answers it with a redirect (303) to the same request as a <code>GET</code>, so that the browser
brings Lanyard's sign-in along and a user who is already signed in is not asked again: the parameters end up
in the address either way, and the form may be at most ${AUTHORIZE_FORM_LIMIT / 1024} KiB.</p>
<p>The user picks their school (unless <code>organisation</code> named it) and signs in with the way their school
uses. Then Lanyard redirects the browser to your callback URL:</p>
${codeBlock('https://app.example.com/auth/callback?code=THE_CODE&state=A_FRESH_RANDOM_VALUE&iss=' + encodeURIComponent(issuer), 'The callback')}
<p>Check that <code>state</code> is the one you sent (and <code>iss</code> is the issuer). The code is valid for
${duration(TTL.AuthorizationCode)} and can be used once. If something went wrong, the callback has
<code>error</code> and <code>error_description</code> instead (see <a href="#errors">Errors</a>).</p>

<h3 id="tokens">2. Exchange the code for tokens</h3>
<p>From your server, never from the browser: <code>POST ${ROUTES.token}</code> with HTTP Basic client
authentication (<code>client_secret_basic</code>: <code>Authorization: Basic base64(client_id:client_secret)</code>)
and <code>grant_type</code>, <code>code</code> and <code>redirect_uri</code> (the same as in the authorization
request), as URL parameters or as a form body. A client secret in the URL or the body is refused: 400 <code>invalid_request</code> beside HTTP Basic, 401 <code>invalid_client</code> without it.</p>
${codeBlock(`curl -u "YOUR_CLIENT_ID:YOUR_CLIENT_SECRET" ${issuer}${ROUTES.token} \\
  -d grant_type=authorization_code \\
  -d code=THE_CODE \\
  --data-urlencode redirect_uri=https://app.example.com/auth/callback`, 'Token request with curl')}
${codeBlock(`{
  "access_token": "…",
  "expires_in": ${TTL.AccessToken},
  "id_token": "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6…",
  "refresh_token": "…",
  "scope": "openid",
  "token_type": "Bearer"
}`, 'Token response')}
<p>The access token is valid for ${duration(TTL.AccessToken)}; the <code>id_token</code> is there only when
<code>openid</code> was in scope. Without <code>openid</code> the response has only <code>access_token</code> and
<code>refresh_token</code>.</p>

<h3 id="id-token">3. Validate the ID token</h3>
<p>The ID token is a JWT signed with RS256 (header ${breakableCode('{"alg":"RS256","typ":"JWT","kid":…}', ',')}). Your app
must check, before trusting it:</p>
<ul>
  <li>the signature, with the key from <a href="${ROUTES.jwks}">the key set</a> whose <code>kid</code> matches the
  header. Fetch keys by <code>kid</code> rather than pinning one: the signing key changes at 00:00 UTC on the
  1st of every month; on an unknown <code>kid</code>, fetch the key set again;</li>
  <li><code>iss</code> equals ${slashed(issuer)} exactly;</li>
  <li><code>aud</code> contains your <code>client_id</code>;</li>
  <li>now is before <code>exp</code> (an ID token lives ${duration(TTL.IdToken)}), and
  <code>iat</code> is not in the future;</li>
  <li><code>nonce</code> equals the one you sent.</li>
</ul>
<p>OpenID Connect libraries do all of this. With Node.js and <a href="https://github.com/panva/jose">jose</a>:</p>
${codeBlock(`import { createRemoteJWKSet, jwtVerify } from 'jose';

const keys = createRemoteJWKSet(new URL('${issuer}${ROUTES.jwks}'));

export async function verifyIdToken(idToken, expectedNonce) {
  const { payload } = await jwtVerify(idToken, keys, {
    issuer: '${issuer}',
    audience: process.env.CLIENT_ID,
    algorithms: ['RS256'],
  });
  if (payload.nonce !== expectedNonce) throw new Error('nonce mismatch');
  return payload; // sub, given_name, family_name, type, …
}`, 'Validating an ID token with jose')}
<p>Use <code>sub</code> as the user’s identifier in your app: it is stable and never given to anyone else.</p>

<h3 id="refresh">4. Refresh, userinfo and revocation</h3>
<p>Every refresh returns a new refresh token and retires the one used; presenting a retired one again answers
<code>invalid_grant</code> and revokes the grant. Refresh tokens work for ${duration(TTL.Grant)} from the sign-in they came from:
refreshing does not extend that, and afterwards the refresh answers <code>invalid_grant</code> (send the user to sign in again).
When a school changes a user’s password, emoji password or badge, or suspends, deletes or signs them out,
their refresh tokens answer <code>invalid_grant</code> at once: send the user to sign in again.</p>
${codeBlock(`curl -u "YOUR_CLIENT_ID:YOUR_CLIENT_SECRET" ${issuer}${ROUTES.token} \\
  -d grant_type=refresh_token -d refresh_token=THE_REFRESH_TOKEN

curl -H "Authorization: Bearer THE_ACCESS_TOKEN" ${issuer}${ROUTES.userinfo}

curl -u "YOUR_CLIENT_ID:YOUR_CLIENT_SECRET" ${issuer}${ROUTES.revocation} -d token=THE_REFRESH_TOKEN`, 'Refresh, userinfo and revocation with curl')}
<p>Userinfo returns the same identity claims as the ID token, for an access token from an <code>openid</code>
request.</p>
`,
};
