import { request as httpRequest } from 'node:http';
import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { DEMO_CALLBACK } from '../helpers/tokens.js';

/**
 * Every cookie is HttpOnly and SameSite, and Secure when the issuer is https (docs/operations.md → Behind a TLS proxy):
 * browsers reach Lanyard by https then, whatever the last hop used. Here the requests come by plain http,
 * as from a TLS proxy Lanyard was not told to trust (no LANYARD_TRUST_PROXY, no X-Forwarded-Proto): the
 * provider's cookies (interaction, session) and Lanyard's own (device, school) must be Secure all the same.
 */

/**
 * A browser behind a TLS proxy that forwards the issuer's address to Lanyard's own (127.0.0.1) by plain
 * http, passing the issuer's Host on (nginx's `proxy_set_header Host $host`: Lanyard's pages answer only under
 * the issuer's name), and rewrites redirects to Lanyard's own address back to the issuer's, as nginx's
 * `proxy_redirect default` does (and its http → https redirect would).
 */
class ThroughAProxy extends HttpBrowser {
  constructor(private readonly issuer: string, private readonly direct: string) { super(); }
  override async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const res = await super.request(u.origin === this.issuer ? new URL(`${u.pathname}${u.search}`, this.direct) : u, init);
    const to = res.headers.get('location');
    // Lanyard's own address, or the issuer's name by http (built from the Host, the proxy not saying https): the
    // latter is where the proxy's own http → https redirect would send the browser.
    const from = [this.direct, this.issuer.replace(/^https:/, 'http:')].find((prefix) => to?.startsWith(`${prefix}/`));
    if (!to || !from) return res;
    const headers = new Headers(res.headers);
    headers.set('location', `${this.issuer}${to.slice(from.length)}`);
    return new Response(res.body, { status: res.status, headers });
  }

  /** The proxy's hop: node:http, since fetch will not send a Host of its own choosing. */
  protected override send(url: string | URL, init: RequestInit): Promise<Response> {
    const u = new URL(url);
    if (u.origin !== this.direct) return super.send(url, init);
    const headers: Record<string, string> = { ...Object.fromEntries(new Headers(init.headers)), host: new URL(this.issuer).host };
    return new Promise((resolve, reject) => {
      const req = httpRequest(u, { method: init.method ?? 'GET', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, v);
          }
          const body = res.statusCode === 204 || res.statusCode === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status: res.statusCode!, headers: out }));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
  }
}

/** A sign-in, the way back to the app, and the school remembered on the front door: every Set-Cookie line. */
async function cookiesOfASignIn(issuer: string, direct: string): Promise<Map<string, string>> {
  const browser = new ThroughAProxy(issuer, direct);
  const authorize = `${issuer}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(DEMO_CALLBACK)}&response_type=code&scope=openid`;
  const callback = await signIn(browser, issuer, authorize, TEACHER);
  if (!callback.searchParams.get('code')) throw new Error(`no code: ${callback.href}`);
  await browser.get(`${issuer}/sign-in?org=demo-school`);
  return new Map(browser.setCookieLines.map((line) => [line.slice(0, line.indexOf('=')), line]));
}

const EXPECTED = ['_interaction', '_interaction_resume', '_session', 'lanyard_device', 'lanyard_school'];

t.test('an https issuer: every cookie is Secure, though the request came by http', async (t) => {
  const issuer = 'https://id.example.org';
  const lanyard = await startLanyard(t, { env: { LANYARD_ISSUER: issuer } });
  const cookies = await cookiesOfASignIn(issuer, `http://127.0.0.1:${lanyard.config.port}`);
  for (const name of EXPECTED) t.ok(cookies.has(name), `${name} was set`);
  for (const [name, line] of cookies) {
    t.match(line, /;\s*secure(;|$)/i, `${name}: Secure`);
    t.match(line, /;\s*httponly(;|$)/i, `${name}: HttpOnly`);
    t.match(line, /;\s*samesite=lax(;|$)/i, `${name}: SameSite=Lax`);
  }
});

t.test('an http issuer (development on this machine): no cookie is Secure, so that sign-in works over http', async (t) => {
  const lanyard = await startLanyard(t);
  const cookies = await cookiesOfASignIn(lanyard.url, lanyard.url);
  for (const name of EXPECTED) t.ok(cookies.has(name), `${name} was set`);
  for (const [name, line] of cookies) t.notMatch(line, /;\s*secure(;|$)/i, `${name}: not Secure`);
});
