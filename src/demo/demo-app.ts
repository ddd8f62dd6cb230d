import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import * as client from 'openid-client';
import { html, type Raw } from '../web/html.js';

/**
 * The quick start's relying party (development only): the demo client `demo-app` at http://localhost:8080,
 * a real openid-client app, so a newcomer can click through the whole flow in a browser: its own sign-in
 * (/login) and a launch from the user's Lanyard dashboard.
 */
export interface DemoAppOptions {
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string;
}

interface Pending { nonce: string; codeVerifier: string }

const page = (title: string, body: Raw) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font:18px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
a.button{display:inline-block;padding:.7rem 1.2rem;background:#2358d4;color:#fff;border-radius:.5rem;text-decoration:none}
pre{background:#f3f5fb;padding:1rem;overflow:auto;font-size:.9rem}</style></head>
<body><p><strong>Demo App</strong> · a relying party for trying Lanyard</p>${body.value}</body></html>`;

export async function startDemoApp(o: DemoAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const callback = `http://localhost:${o.port}/callback`;
  const pending = new Map<string, Pending>();
  let config: client.Configuration | undefined;
  const discover = async () => {
    config ??= await client.discovery(new URL(o.issuer), o.clientId, undefined, client.ClientSecretBasic(o.clientSecret), {
      execute: o.issuer.startsWith('http://') ? [client.allowInsecureRequests] : [],
    });
    return config;
  };

  app.get('/', async (_req, reply) => reply.type('text/html').send(page('Demo App', html`
<h1>Welcome to the Demo App</h1>
<p>This app signs you in with Lanyard at <code>${o.issuer}</code>.</p>
<p><a class="button" href="/login">Sign in with Lanyard</a></p>
<p>Try <code>teacher</code> / <code>teacher-pass</code> or <code>pupil</code> / <code>pupil-pass</code> at Demo School.</p>`)));

  app.get('/login', async (_req, reply) => {
    const state = client.randomState();
    const p: Pending = { nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
    pending.set(state, p);
    if (pending.size > 1000) pending.delete(pending.keys().next().value!);
    const url = client.buildAuthorizationUrl(await discover(), {
      redirect_uri: callback, scope: 'openid', state, nonce: p.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(p.codeVerifier), code_challenge_method: 'S256',
    });
    return reply.redirect(url.href);
  });

  const notSignedIn = (reply: FastifyReply, why: string) => reply.code(400).type('text/html').send(page('Not signed in', html`<h1>Not signed in</h1>
<p>${why}</p>
<p><a class="button" href="/">Start again</a></p>`));

  app.get<{ Querystring: Record<string, string> }>('/callback', async (req, reply) => {
    const current = new URL(req.url, `http://localhost:${o.port}`);
    if (current.searchParams.has('error')) {
      return notSignedIn(reply, current.searchParams.get('error_description') ?? current.searchParams.get('error')!);
    }
    // No state: a launch from the user's Lanyard dashboard (SPEC: a code for the first redirect URI, with the
    // app's default scopes, no state, no nonce and no PKCE). With a state: the sign-in /login started.
    const state = current.searchParams.get('state');
    const p = state === null ? undefined : pending.get(state);
    if (state !== null) pending.delete(state);
    if (state !== null && !p) return notSignedIn(reply, 'Unknown or repeated sign-in.');
    let tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
    try {
      tokens = await client.authorizationCodeGrant(await discover(), current, p
        ? { expectedState: state!, expectedNonce: p.nonce, pkceCodeVerifier: p.codeVerifier }
        : { expectedState: client.skipStateCheck });
    } catch (err) {
      return notSignedIn(reply, err instanceof client.ResponseBodyError ? `Lanyard said ${err.error}: ${err.error_description ?? ''}` : 'The sign-in could not be completed.');
    }
    const claims: Record<string, unknown> = tokens.claims() ?? {};
    return reply.type('text/html').send(page('Signed in', html`
<h1>Hello, ${String(claims.given_name ?? claims.sub)}!</h1>
<p>Lanyard signed you in. These are the verified claims of your ID token:</p>
<pre>${JSON.stringify(claims, null, 2)}</pre>
<p>Token response: <code>token_type</code> ${tokens.token_type}, an access token valid ${String(tokens.expires_in)} s,
${tokens.refresh_token ? 'a refresh token' : 'no refresh token'}.</p>
<p><a class="button" href="${o.issuer}/oauth/logout?client_id=${encodeURIComponent(o.clientId)}">Sign out</a></p>`));
  });

  app.get('/signed-out', async (_req, reply) => reply.type('text/html').send(page('Signed out', html`
<h1>You are signed out</h1><p><a class="button" href="/">Sign in again</a></p>`)));

  await app.listen({ port: o.port, host: '127.0.0.1' });
  return app;
}
