import { FlowError, header, redirectTo, type Reply } from '../http.js';
import type { Target } from '../target.js';

let counter = 0;
/** A state or nonce as apps send them: unique per request (cheap to make: no CSPRNG call per request). */
const fresh = (prefix: string) => `${prefix}${(++counter).toString(36)}x${Date.now().toString(36)}bench0123456789`;

/** GET /oauth/authorize for the bench client: code flow, openid, a state and a nonce (SPEC: recommended). */
export function authorizePath(t: Target, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({
    client_id: t.setup.clientId,
    redirect_uri: t.setup.redirectUri,
    response_type: 'code',
    scope: 'openid',
    state: fresh('s'),
    nonce: fresh('n'),
    ...extra,
  });
  return `${t.paths.authorize}?${q.toString()}`;
}

/** The reply's status as the failure of `step` (with its Retry-After, if any). */
const failed = (r: Reply, step: string) => new FlowError(step, r.status, header(r, 'retry-after'));

/** The redirect's target within the server (path and query), or a FlowError naming the step. */
export function nextPath(r: Reply, step: string): string {
  const url = redirectTo(r, 'http://server.invalid'); // only the path and query are kept
  if (!url) throw failed(r, step);
  return `${url.pathname}${url.search}`;
}

/** The redirect, when it goes back to the client's redirect URI (the end of the flow). */
const toCallback = (r: Reply, t: Target): URL | undefined => {
  const url = redirectTo(r, t.http.origin);
  return url?.href.startsWith(t.setup.redirectUri) ? url : undefined;
};

/** The code in a redirect to the client's redirect URI, or a FlowError. */
export function codeFrom(r: Reply, t: Target, step: string): string {
  const url = toCallback(r, t);
  if (!url) throw failed(r, step);
  const code = url.searchParams.get('code');
  if (!code) throw new FlowError(`${step} (no code)`, r.status);
  return code;
}

/** Is this redirect the end of the flow (back at the client's redirect URI)? */
export const atCallback = (r: Reply, t: Target): boolean => toCallback(r, t) !== undefined;
