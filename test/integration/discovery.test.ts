import { createHash, X509Certificate } from 'node:crypto';
import t from 'tap';
import { startLanyard } from '../helpers/lanyard.js';

t.test('discovery document: every field SPEC.md lists, with the specified values', async (t) => {
  const lanyard = await startLanyard(t);
  const issuer = lanyard.url;
  const res = await fetch(`${issuer}/.well-known/openid-configuration`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /application\/json/);
  const d = await res.json() as Record<string, unknown>;
  t.equal(d.issuer, issuer);
  t.equal(d.authorization_endpoint, `${issuer}/oauth/authorize`);
  t.equal(d.token_endpoint, `${issuer}/oauth/token`);
  t.equal(d.jwks_uri, `${issuer}/.well-known/jwks.json`);
  t.same(d.scopes_supported, ['openid']);
  t.same(d.response_types_supported, ['code', 'id_token']);
  t.same(d.subject_types_supported, ['public']);
  t.same(d.id_token_signing_alg_values_supported, ['RS256']);
  t.same(d.token_endpoint_auth_methods_supported, ['client_secret_basic']);
  t.equal(d.authorization_response_iss_parameter_supported, true, 'RFC 9207: iss in every authorization response, advertised');
  for (const claim of ['email', 'given_name', 'family_name', 'nonce',
    `${issuer}/claims/google_email`, `${issuer}/claims/microsoft_email`, `${issuer}/claims/roster_id`]) {
    t.ok((d.claims_supported as string[]).includes(claim), `claims_supported has ${claim}`);
  }
  t.notOk((d.claims_supported as string[]).includes('type'), 'type is issued but not listed (SPEC note)');
  t.equal(d.service_documentation, `${issuer}/docs`);
  const docs = await fetch(d.service_documentation as string);
  t.equal(docs.status, 200, 'service_documentation is a real page');
  const userinfo = await fetch(d.userinfo_endpoint as string);
  t.equal(userinfo.status, 401, 'advertised userinfo endpoint exists (and wants a token)');
  t.match(userinfo.headers.get('www-authenticate'), /^Bearer/);
  // OpenID Connect RP-Initiated Logout 1.0 §2.1: the SPEC's logout endpoint, named for standard libraries.
  t.equal(d.end_session_endpoint, `${issuer}/oauth/logout`);
  const logout = await fetch(`${d.end_session_endpoint as string}?client_id=demo-app`, { redirect: 'manual' });
  t.equal(logout.status, 303, 'advertised logout endpoint exists');
});

t.test('key set: one RSA-4096 key with certificate and thumbprints', async (t) => {
  const lanyard = await startLanyard(t);
  const res = await fetch(`${lanyard.url}/.well-known/jwks.json`);
  t.equal(res.status, 200);
  const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);
  t.ok(maxAge > 0 && maxAge <= 3600, 'cacheable, briefly');
  const { keys } = await res.json() as { keys: Record<string, unknown>[] };
  t.equal(keys.length, 1);
  const k = keys[0]!;
  t.same(Object.keys(k).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use', 'x5c', 'x5t', 'x5t#S256'].sort());
  t.same([k.kty, k.use, k.alg], ['RSA', 'sig', 'RS256']);
  const der = Buffer.from((k.x5c as string[])[0]!, 'base64');
  const cert = new X509Certificate(der);
  const jwk = cert.publicKey.export({ format: 'jwk' });
  t.equal(jwk.n, k.n, 'certificate key matches n');
  t.equal(jwk.e, k.e, 'certificate key matches e');
  t.equal(cert.publicKey.asymmetricKeyDetails?.modulusLength, 4096, 'RSA-4096');
  t.equal(k.x5t, createHash('sha1').update(der).digest('base64url'));
  t.equal(k['x5t#S256'], createHash('sha256').update(der).digest('base64url'));
  t.match(cert.subject, /CN=localhost/);
});

t.test('HTML pages cannot be framed; protocol pages are not cached', async (t) => {
  const lanyard = await startLanyard(t);
  const res = await fetch(`${lanyard.url}/oauth/authorize?client_id=nope`, { redirect: 'manual' });
  t.equal(res.status, 400);
  t.equal(res.headers.get('x-frame-options'), 'DENY');
  t.match(res.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  t.equal(res.headers.get('x-content-type-options'), 'nosniff');
  t.match(await res.text(), /not registered/);
});

t.test('login-screen assets: only the known files; nothing else, not even object internals', async (t) => {
  const lanyard = await startLanyard(t);
  const css = await fetch(`${lanyard.url}/assets/lanyard.css`);
  t.equal(css.status, 200);
  t.match(css.headers.get('content-type'), /text\/css/);
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'nope.js']) {
    const res = await fetch(`${lanyard.url}/assets/${name}`);
    t.equal(res.status, 404, `${name}: 404`);
  }
  t.notOk(lanyard.logs.some((l) => l.includes('"level":50')), 'and no error logged');
});

t.test('discovery and key set carry an ETag: a client that has them gets 304, a new key a new tag', async (t) => {
  const lanyard = await startLanyard(t);
  for (const path of ['/.well-known/openid-configuration', '/.well-known/jwks.json']) {
    const first = await fetch(`${lanyard.url}${path}`);
    const etag = first.headers.get('etag');
    t.match(etag, /^"[A-Za-z0-9_-]{32}"$/, `${path}: a strong ETag`);
    const body = await first.text();
    const again = await fetch(`${lanyard.url}${path}`);
    t.equal(again.headers.get('etag'), etag, `${path}: the same tag for the same document`);
    t.equal(await again.text(), body, `${path}: the same bytes`);
    const cached = await fetch(`${lanyard.url}${path}`, { headers: { 'if-none-match': `W/"other", ${etag!}` } });
    t.equal(cached.status, 304, `${path}: 304 Not Modified when the client has it`);
    t.equal(await cached.text(), '', `${path}: no body`);
    t.equal(cached.headers.get('etag'), etag, `${path}: the tag again`);
    t.match(cached.headers.get('cache-control'), /max-age=\d+/, `${path}: and its lifetime (RFC 9110 §15.4.5)`);
    const stale = await fetch(`${lanyard.url}${path}`, { headers: { 'if-none-match': '"something-else"' } });
    t.equal(stale.status, 200, `${path}: a different tag gets the document`);
  }
  const old = await fetch(`${lanyard.url}/.well-known/jwks.json`);
  const before = old.headers.get('etag');
  const oldKids = (await old.json() as { keys: { kid: string }[] }).keys.map((k) => k.kid);
  const fresh = await lanyard.keyManager.rotateNow();
  await lanyard.app.lanyard.keyRotation.tick();
  const res = await fetch(`${lanyard.url}/.well-known/jwks.json`, { headers: { 'if-none-match': before! } });
  t.equal(res.status, 200, 'after a rotation the old tag no longer matches');
  t.not(res.headers.get('etag'), before, 'a new tag');
  const kids = (await res.json() as { keys: { kid: string }[] }).keys.map((k) => k.kid);
  t.equal(kids[0], fresh.kid, 'and the new key set');
  t.notSame(kids, oldKids);
});
