import { HttpBrowser } from './http-browser.js';
import { type Credentials, signIn, TEACHER } from './sign-in.js';

export const DEMO_CALLBACK = 'http://localhost:8080/callback';
export const demoBasic = `Basic ${Buffer.from('demo-app:demo-app-secret').toString('base64')}`;

/** Signs a user in (fresh browser) and exchanges the code: the token endpoint's JSON. */
export async function issueTokens(issuer: string, who: Credentials = TEACHER): Promise<Record<string, string>> {
  const authorize = `${issuer}/oauth/authorize?client_id=demo-app&redirect_uri=${encodeURIComponent(DEMO_CALLBACK)}`
    + '&response_type=code&scope=openid&nonce=n-1';
  const callback = await signIn(new HttpBrowser(), issuer, authorize, who);
  const res = await demoTokenRequest(issuer, { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: DEMO_CALLBACK });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** POST /oauth/token as the demo client (HTTP Basic), a form body: the status and the JSON answer. */
export async function demoTokenRequest(issuer: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${issuer}/oauth/token`, {
    method: 'POST',
    headers: { authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: await res.json() as Record<string, string> };
}

export const headerOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString('utf8')) as { alg: string; typ?: string; kid: string };
