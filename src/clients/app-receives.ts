import type { StoredClient } from '../../adapters/store.js';
import { serviceClaimNames } from '../accounts/claims.js';
import { OFFERED_SCOPES } from './offered-scopes.js';

/**
 * What an app receives about the people it signs in, said for a school deciding whether to use it
 * (docs/school-console.md → Apps): its default scopes (src/clients/offered-scopes.ts, the developer's choice,
 * which dashboard launches use), each with the claims it carries (SPEC: ID token payload claims; GET /api/user).
 */

/** One thing an app learns about a person. */
export interface ReceivedClaim {
  /** The claim's name as the app reads it. */
  claim: string;
  /** What it is, in plain words. */
  what: string;
  /** When it is there. */
  when: string;
}

/** A scope with what it gives the app. */
export interface ReceivedScope {
  scope: string;
  /** The developer area's title of the scope ("an ID token with the user’s identity"). */
  title: string;
  claims: ReceivedClaim[];
}

/** SPEC: ID token claims about the person (the protocol's own, iss, aud, exp, iat and nonce, say nothing about them). */
export function identityClaims(issuer: string): ReceivedClaim[] {
  const s = serviceClaimNames(issuer);
  return [
    { claim: 'sub', what: 'their Lanyard id, the same every time (a letter and digits)', when: 'always' },
    { claim: 'given_name, family_name', what: 'first and last name', when: 'always' },
    { claim: 'type', what: 'what they are at the school: student, employee, …', when: 'always' },
    { claim: 'email', what: 'their email address', when: 'when the school gave one' },
    { claim: s.googleEmail, what: 'the email of their matched Google account', when: 'when matched' },
    { claim: s.microsoftEmail, what: 'the email of their matched Microsoft account', when: 'when matched' },
    { claim: s.rosterId, what: 'their id in the school’s information system', when: 'when matched' },
  ];
}

/** What each scope carries: `openid` the identity claims; `user:read` the same from GET /api/user, with the username and school. */
function claimsOf(scope: string, issuer: string): ReceivedClaim[] {
  if (scope === 'openid') return identityClaims(issuer);
  if (scope === 'user:read') {
    return [
      ...identityClaims(issuer),
      { claim: 'username', what: 'the username they sign in with', when: 'always' },
      { claim: 'organisation', what: 'their school’s name and address in Lanyard', when: 'always' },
    ];
  }
  return [];
}

/** The app's default scopes, in the offered order, with what each gives it. */
export function appReceives(client: Pick<StoredClient, 'defaultScopes'>, issuer: string): ReceivedScope[] {
  return OFFERED_SCOPES.filter((s) => client.defaultScopes.includes(s.name))
    .map((s) => ({ scope: s.name, title: s.title, claims: claimsOf(s.name, issuer) }));
}
