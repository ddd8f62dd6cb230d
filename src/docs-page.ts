import { STATE_MAX_LENGTH } from './provider/authorization-params.js';
import type { FastifyInstance } from 'fastify';
import { html } from '../interactions/views/html.js';
import { layout } from '../interactions/views/layout.js';
import { serviceClaimNames } from './accounts/claims.js';
import { ROUTES } from './provider/paths.js';

/** The developer documentation advertised as discovery's service_documentation (by default). */
export function docsRoute(app: FastifyInstance, issuer: string): void {
  const s = serviceClaimNames(issuer);
  const page = layout('Developer documentation', html`
<h1>Sign in with Lanyard</h1>
<p>Lanyard is an OpenID Connect provider. Point your OIDC client library at the issuer
<code>${issuer}</code>; it finds everything in <a href="${ROUTES.discovery}">${ROUTES.discovery}</a>.</p>
<h2>Flow</h2>
<ol>
<li>Redirect the user to <code>GET ${ROUTES.authorization}</code> with <code>client_id</code>, <code>redirect_uri</code>
(exactly as registered), <code>response_type=code</code>, <code>scope=openid</code>, a fresh <code>nonce</code>
(at most 1024 characters), <code>state</code> (at most ${STATE_MAX_LENGTH} characters) and optionally <code>organisation</code> (school slug or id).</li>
<li>The user signs in; Lanyard redirects to your <code>redirect_uri</code> with <code>code</code> (valid 10 minutes, single use).</li>
<li><code>POST ${ROUTES.token}</code> with HTTP Basic client authentication (<code>client_secret_basic</code>),
<code>grant_type=authorization_code</code>, <code>code</code> and <code>redirect_uri</code>, as URL parameters or a form body.
You get <code>token_type</code> Bearer, <code>access_token</code> (24 hours), <code>refresh_token</code> and, with openid,
<code>id_token</code>.</li>
<li>Validate the ID token: RS256 signature with the key from <a href="${ROUTES.jwks}">${ROUTES.jwks}</a> chosen by <code>kid</code>;
<code>iss</code>, <code>aud</code>, <code>exp</code>, <code>iat</code>, <code>nonce</code>.</li>
<li>Sign out: send the browser to <code>GET ${ROUTES.logout}?client_id=…</code>; it returns to your registered logout URL.</li>
</ol>
<h2>ID token claims</h2>
<p><code>iss sub aud exp iat nonce given_name family_name type</code>, and when available <code>email</code>,
<code>${s.googleEmail}</code>, <code>${s.microsoftEmail}</code>, <code>${s.rosterId}</code> (omitted, never null, when absent).
The same claims are returned by <code>${ROUTES.userinfo}</code> for a Bearer access token.</p>
`);
  app.get(ROUTES.docs, async (_req, reply) => reply.type('text/html; charset=utf-8').send(page));
}
