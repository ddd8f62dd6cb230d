import * as client from 'openid-client';

export const DEMO_CLIENT = { id: 'demo-app', secret: 'demo-app-secret', redirectUri: 'http://localhost:8080/callback' };

/** The demo client's HTTP Basic credentials (client_secret_basic), as an Authorization header. */
export const DEMO_BASIC_AUTH = `Basic ${Buffer.from(`${DEMO_CLIENT.id}:${DEMO_CLIENT.secret}`).toString('base64')}`;

/** The demo client's authorization request for `openid`, with its own state (and a nonce made from it). */
export const demoAuthorizationUrl = (issuer: string, state: string) => `${issuer}/oauth/authorize?${new URLSearchParams({
  client_id: DEMO_CLIENT.id, redirect_uri: DEMO_CLIENT.redirectUri, response_type: 'code', scope: 'openid', state, nonce: `nonce-${state}`,
}).toString()}`;

/**
 * A real relying party: openid-client configured by discovery, authenticating with client_secret_basic,
 * with ID token signature checks against the key set turned on.
 */
export async function relyingParty(issuer: string, clientId = DEMO_CLIENT.id, secret = DEMO_CLIENT.secret) {
  const config = await client.discovery(new URL(issuer), clientId, undefined, client.ClientSecretBasic(secret), {
    execute: [client.allowInsecureRequests],
  });
  client.enableNonRepudiationChecks(config);
  return config;
}

export interface AuthorizationRequest {
  url: URL;
  nonce: string;
  state: string;
  codeVerifier: string;
}

export async function authorizationRequest(
  config: client.Configuration,
  extra: Record<string, string> = {},
): Promise<AuthorizationRequest> {
  const nonce = client.randomNonce();
  const state = client.randomState();
  const codeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: DEMO_CLIENT.redirectUri,
    scope: 'openid',
    nonce,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url, nonce, state, codeVerifier };
}
