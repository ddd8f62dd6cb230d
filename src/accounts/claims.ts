import type { User } from '../../adapters/store.js';

/** Names of Lanyard's service-specific claims (SPEC: ID token payload claims). */
export const serviceClaimNames = (issuer: string) => ({
  googleEmail: `${issuer}/claims/google_email`,
  microsoftEmail: `${issuer}/claims/microsoft_email`,
  rosterId: `${issuer}/claims/roster_id`,
});

/** Every identity claim Lanyard issues, in ID tokens and at userinfo alike. */
export const identityClaimNames = (issuer: string): string[] => {
  const s = serviceClaimNames(issuer);
  return ['sub', 'email', 'given_name', 'family_name', 'type', s.googleEmail, s.microsoftEmail, s.rosterId];
};

/**
 * The claims of a user. SPEC: optional claims are omitted, never null, when absent.
 */
export function userClaims(user: User, issuer: string): Record<string, string> {
  const s = serviceClaimNames(issuer);
  const claims: Record<string, string> = {
    sub: user.id,
    given_name: user.givenName,
    family_name: user.familyName,
    type: user.type,
  };
  if (user.email) claims.email = user.email;
  if (user.googleEmail) claims[s.googleEmail] = user.googleEmail;
  if (user.microsoftEmail) claims[s.microsoftEmail] = user.microsoftEmail;
  if (user.rosterId) claims[s.rosterId] = user.rosterId;
  return claims;
}
