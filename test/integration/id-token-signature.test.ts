import crypto, { webcrypto } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { compactVerify, createLocalJWKSet } from 'jose';
import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';
import { demoBasic, headerOf, issueTokens } from '../helpers/tokens.js';

/**
 * docs/performance.md: every ID token used to be signed twice (by oidc-provider, then again to add `typ`). RSA-4096
 * signing is the most expensive thing a token request does, so each ID token must cost one signature.
 * Every way this process can make an RSA signature is counted: node:crypto `sign` (with or without a
 * callback), `createSign`, and WebCrypto's `subtle.sign` (which jose uses).
 */
function countSignatures(t: { teardown(fn: () => void): void }) {
  let count = 0;
  const { sign, createSign } = crypto;
  const subtle = Object.getPrototypeOf(webcrypto.subtle) as { sign: (...a: unknown[]) => Promise<ArrayBuffer> };
  const subtleSign = subtle.sign;
  crypto.sign = ((...args: Parameters<typeof sign>) => { count += 1; return sign(...args); }) as typeof sign;
  crypto.createSign = ((...args: Parameters<typeof createSign>) => { count += 1; return createSign(...args); }) as typeof createSign;
  subtle.sign = function countedSign(this: unknown, ...args: unknown[]) { count += 1; return subtleSign.apply(this, args); };
  syncBuiltinESMExports();
  t.teardown(() => {
    crypto.sign = sign;
    crypto.createSign = createSign;
    subtle.sign = subtleSign;
    syncBuiltinESMExports();
  });
  return { get count() { return count; } };
}
t.test('one RSA signature per ID token, with the header SPEC.md requires', async (t) => {
  const lanyard = await startLanyard(t);
  const jwks = createLocalJWKSet(await (await fetch(`${lanyard.url}/.well-known/jwks.json`)).json() as Parameters<typeof createLocalJWKSet>[0]);

  const signatures = countSignatures(t);
  const tokens = await issueTokens(lanyard.url); // a sign-in (no signature) and a code exchange
  t.equal(signatures.count, 1, 'the code exchange signed once');
  t.same(headerOf(tokens.id_token!), { alg: 'RS256', typ: 'JWT', kid: headerOf(tokens.id_token!).kid }, 'alg, typ JWT, kid');
  const verified = await compactVerify(tokens.id_token!, jwks);
  t.equal(verified.protectedHeader.typ, 'JWT', 'the typ header is the signed one');

  const res = await fetch(`${lanyard.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: demoBasic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }),
  });
  t.equal(res.status, 200, 'refreshed');
  const refreshed = await res.json() as Record<string, string>;
  t.equal(signatures.count, 2, 'the refresh (a new ID token) signed once more');
  t.equal((await compactVerify(refreshed.id_token!, jwks)).protectedHeader.typ, 'JWT', 'its header verifies too');
});
