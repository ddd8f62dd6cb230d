import { createServer, type Server } from 'node:http';
import * as client from 'openid-client';
import { freePort } from './lanyard.js';
import { relyingParty } from './relying-party.js';

/**
 * A relying party that supports third-party initiated login (OpenID Connect Core §4), on loopback: GET
 * /start?iss&login_hint&target_link_uri checks `iss` and starts its own authorization request (state, nonce,
 * PKCE, the login_hint passed on) with openid-client; GET /cb exchanges the code, verifies the ID token and
 * shows who signed in. Its issuer is set once Lanyard has started (the app's addresses go in Lanyard's config first).
 */
export interface LaunchApp {
  base: string;
  clientId: string;
  secret: string;
  setIssuer(issuer: string): void;
  /** Each completed sign-in: the ID token's claims, and the login_hint the launch gave. */
  signIns: { claims: client.IDToken; loginHint: string | null; targetLinkUri: string | null }[];
  /** Refusals (a wrong iss, a state that does not match). */
  problems: string[];
}

export async function startLaunchApp(t: { teardown(fn: () => unknown): void }, clientId: string, secret: string): Promise<LaunchApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let issuer = '';
  let config: client.Configuration | undefined;
  const pending = new Map<string, { nonce: string; verifier: string; loginHint: string | null; targetLinkUri: string | null }>();
  const app: LaunchApp = { base, clientId, secret, setIssuer: (i) => { issuer = i; }, signIns: [], problems: [] };
  const page = (status: number, body: string) => ({ status, body: `<!doctype html><html lang="en"><title>Reading Rocket</title><main>${body}</main></html>` });

  async function handle(url: URL): Promise<{ status: number; body: string; location?: string }> {
    config ??= await relyingParty(issuer, clientId, secret);
    if (url.pathname === '/start') {
      if (url.searchParams.get('iss') !== issuer) {
        app.problems.push(`iss ${url.searchParams.get('iss')}`);
        return page(400, '<h1>Unknown issuer</h1>');
      }
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      const loginHint = url.searchParams.get('login_hint');
      pending.set(state, { nonce, verifier, loginHint, targetLinkUri: url.searchParams.get('target_link_uri') });
      const authorize = client.buildAuthorizationUrl(config, {
        redirect_uri: `${base}/cb`, scope: 'openid', state, nonce, code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256', ...(loginHint ? { login_hint: loginHint } : {}),
      });
      return { status: 302, body: '', location: authorize.href };
    }
    if (url.pathname === '/cb') {
      const started = pending.get(url.searchParams.get('state') ?? '');
      if (!started) {
        app.problems.push('a callback this app did not start');
        return page(400, '<h1>Not signed in</h1>');
      }
      pending.delete(url.searchParams.get('state')!);
      const tokens = await client.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: started.verifier, expectedNonce: started.nonce, expectedState: url.searchParams.get('state')!,
      });
      const claims = tokens.claims()!;
      app.signIns.push({ claims, loginHint: started.loginHint, targetLinkUri: started.targetLinkUri });
      return page(200, `<h1>Reading Rocket</h1><p>Signed in as ${String(claims.given_name)}</p>`);
    }
    return page(404, '<h1>Not found</h1>');
  }

  const server: Server = createServer((req, res) => {
    handle(new URL(req.url ?? '/', base)).then((r) => {
      res.writeHead(r.status, { 'content-type': 'text/html; charset=utf-8', ...(r.location ? { location: r.location } : {}) });
      res.end(r.body);
    }, (err: unknown) => {
      app.problems.push(String(err));
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('error');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return app;
}
