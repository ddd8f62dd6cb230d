import { FlowError, form, header } from '../http.js';
import type { Target } from '../target.js';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** The token endpoint's answer, checked: 200 with an access token, a refresh token and an ID token. */
async function tokenRequest(t: Target, fields: Record<string, string>, step: string): Promise<Tokens> {
  const r = await t.http.request({
    method: 'POST', path: t.paths.token, body: form(fields), read: true,
    headers: { authorization: t.setup.clientAuthorization, accept: 'application/json' },
  });
  if (r.status !== 200) throw new FlowError(step, r.status, header(r, 'retry-after'));
  const body = JSON.parse(r.text) as { access_token?: string; refresh_token?: string; id_token?: string };
  if (!body.access_token || !body.refresh_token || !body.id_token) throw new FlowError(`${step} (incomplete response)`, r.status);
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

/** POST /oauth/token, grant_type=authorization_code, HTTP Basic (SPEC: client_secret_basic). */
export const exchange = (t: Target, code: string): Promise<Tokens> =>
  tokenRequest(t, { grant_type: 'authorization_code', code, redirect_uri: t.setup.redirectUri }, 'exchange');

/** POST /oauth/token, grant_type=refresh_token: a new access, refresh and ID token. */
export const refresh = (t: Target, refreshToken: string): Promise<Tokens> =>
  tokenRequest(t, { grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh');

/** GET userinfo with the access token. */
export async function userinfo(t: Target, accessToken: string): Promise<void> {
  const r = await t.http.request({ path: t.paths.userinfo, headers: { authorization: `Bearer ${accessToken}` } });
  if (r.status !== 200) throw new FlowError('userinfo', r.status, header(r, 'retry-after'));
}
