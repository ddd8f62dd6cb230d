import { serviceClaimNames } from '../accounts/claims.js';
import { ROUTES } from '../routes.js';

/**
 * SPEC: Resources → Provider metadata. Served by Lanyard so every value is exactly the specified one.
 * Extra standard fields are listed only for endpoints and features that really work here.
 * `type` is issued in ID tokens but, as SPEC.md notes, is not listed in claims_supported.
 */
export function discoveryDocument(issuer: string, serviceDocumentation: string) {
  const s = serviceClaimNames(issuer);
  return {
    issuer,
    authorization_endpoint: issuer + ROUTES.authorization,
    token_endpoint: issuer + ROUTES.token,
    userinfo_endpoint: issuer + ROUTES.userinfo,
    revocation_endpoint: issuer + ROUTES.revocation,
    jwks_uri: issuer + ROUTES.jwks,
    // OpenID Connect RP-Initiated Logout 1.0 §2.1: the SPEC's logout endpoint (src/provider/logout.ts).
    end_session_endpoint: issuer + ROUTES.logout,
    scopes_supported: ['openid'],
    response_types_supported: ['code', 'id_token'],
    response_modes_supported: ['query', 'fragment', 'form_post'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'implicit'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic'],
    code_challenge_methods_supported: ['S256'],
    // RFC 9207: every authorization response, success or error, carries iss (oidc-provider always adds it).
    authorization_response_iss_parameter_supported: true,
    claims_supported: [
      'sub', 'iss', 'aud', 'exp', 'iat', 'nonce',
      'email', 'given_name', 'family_name',
      s.googleEmail, s.microsoftEmail, s.rosterId,
    ],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    service_documentation: serviceDocumentation,
  };
}
