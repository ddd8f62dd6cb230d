import t from 'tap';
import { appReceives, identityClaims } from '../../../src/clients/app-receives.js';

/** What an app receives, said for a school (docs/school-console.md → Apps): its default scopes, each with its claims (SPEC: ID token claims). */
const ISSUER = 'https://id.example';

t.test('openid carries the identity claims of the ID token; user:read those and the username and school', async (t) => {
  const [openid, userRead] = appReceives({ defaultScopes: ['user:read', 'openid'] }, ISSUER);
  t.equal(openid?.scope, 'openid', 'in the offered order');
  t.same(openid?.claims.map((c) => c.claim), [
    'sub', 'given_name, family_name', 'type', 'email',
    'https://id.example/claims/google_email', 'https://id.example/claims/microsoft_email', 'https://id.example/claims/roster_id',
  ], 'every claim about the person SPEC lists');
  t.equal(userRead?.scope, 'user:read');
  t.same(userRead?.claims.slice(-2).map((c) => c.claim), ['username', 'organisation']);
  t.match(openid?.claims.find((c) => c.claim === 'email'), { when: 'when the school gave one' });
  t.same(appReceives({ defaultScopes: [] }, ISSUER), [], 'no default scopes');
  t.same(appReceives({ defaultScopes: ['not-offered'] }, ISSUER), [], 'only scopes Lanyard offers');
  t.equal(identityClaims(ISSUER).length, 7);
});
