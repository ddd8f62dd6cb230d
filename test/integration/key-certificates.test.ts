import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import t from 'tap';
import * as client from 'openid-client';
import { ManualClock } from '../../src/clock.js';
import { startLanyard } from '../helpers/lanyard.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { signIn, TEACHER } from '../helpers/sign-in.js';
import { authorizationRequest, relyingParty } from '../helpers/relying-party.js';

interface Jwk { kid: string; n: string; e: string; x5c: string[]; x5t: string; 'x5t#S256': string }

const openssl = (args: string[], input: Buffer) => execFileSync('openssl', args, { input }).toString();

t.test('openssl reads every published certificate: RSA-4096 matching n/e, the policy window, thumbprints', async (t) => {
  const clock = new ManualClock(new Date('2027-02-01T00:00:00.000Z'));
  const lanyard = await startLanyard(t, { clock });
  clock.set(new Date('2027-01-15T00:00:00.000Z'));
  await lanyard.keyManager.ensureMonth('2027-01');
  clock.set(new Date('2027-02-01T00:00:00.000Z'));
  await lanyard.app.lanyard.keyRotation.tick();
  const { keys } = await (await fetch(`${lanyard.url}/.well-known/jwks.json`)).json() as { keys: Jwk[] };
  t.equal(keys.length, 2, 'February and January published');

  const expected = [
    { notBefore: 'Feb  1 00:00:00 2027 GMT', notAfter: 'Mar 31 23:59:59 2027 GMT' },
    { notBefore: 'Jan  1 00:00:00 2027 GMT', notAfter: 'Feb 28 23:59:59 2027 GMT' },
  ];
  keys.forEach((key, i) => {
    const der = Buffer.from(key.x5c[0]!, 'base64');
    const text = openssl(['x509', '-inform', 'DER', '-noout', '-text'], der);
    t.match(text, /Public-Key: \(4096 bit\)/, `${key.kid}: RSA 4096-bit`);
    t.match(text, /Signature Algorithm: sha256WithRSAEncryption/, 'SHA-256 with RSA');
    t.match(text, /Subject: CN ?= ?localhost/, 'subject names the issuer host');
    const modulus = openssl(['x509', '-inform', 'DER', '-noout', '-modulus'], der).trim().replace('Modulus=', '');
    t.equal(modulus.toLowerCase(), Buffer.from(key.n, 'base64url').toString('hex'), 'modulus equals n');
    t.equal(Number(/Exponent: (\d+)/.exec(text)?.[1]), Buffer.from(key.e, 'base64url').readUIntBE(0, Buffer.from(key.e, 'base64url').length), 'exponent equals e');
    const dates = openssl(['x509', '-inform', 'DER', '-noout', '-startdate', '-enddate'], der);
    t.match(dates, `notBefore=${expected[i]!.notBefore}`, 'valid from the 1st of its month');
    t.match(dates, `notAfter=${expected[i]!.notAfter}`, 'to the last second of the following month');
    const sha1 = openssl(['x509', '-inform', 'DER', '-noout', '-fingerprint', '-sha1'], der);
    const sha256 = openssl(['x509', '-inform', 'DER', '-noout', '-fingerprint', '-sha256'], der);
    const hexToB64url = (line: string) => Buffer.from(line.split('=')[1]!.trim().replace(/:/g, ''), 'hex').toString('base64url');
    t.equal(key.x5t, hexToB64url(sha1), 'x5t = SHA-1 thumbprint of the DER certificate');
    t.equal(key['x5t#S256'], hexToB64url(sha256), 'x5t#S256 = SHA-256 thumbprint');
    t.equal(key.x5t, createHash('sha1').update(der).digest('base64url'));
    const serial = openssl(['x509', '-inform', 'DER', '-noout', '-serial'], der);
    t.match(serial, /^serial=[0-9A-F]{32}\s*$/, 'a random 128-bit serial');
  });
  t.not(openssl(['x509', '-inform', 'DER', '-noout', '-serial'], Buffer.from(keys[0]!.x5c[0]!, 'base64')),
    openssl(['x509', '-inform', 'DER', '-noout', '-serial'], Buffer.from(keys[1]!.x5c[0]!, 'base64')), 'serials differ');
});

t.test('an openid-client relying party with the old key set cached verifies a token signed after the switch', async (t) => {
  const clock = new ManualClock(new Date('2027-06-30T23:59:00.000Z'));
  const lanyard = await startLanyard(t, { clock });
  await lanyard.app.lanyard.keyRotation.tick();
  const rp = await relyingParty(lanyard.url);

  const login = async (rp: client.Configuration) => {
    const req = await authorizationRequest(rp);
    const callback = await signIn(new HttpBrowser(), lanyard.url, req.url, TEACHER);
    return client.authorizationCodeGrant(rp, callback, {
      expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier,
    });
  };
  const june = await login(rp);
  const cached = client.getJwksCache(rp);
  t.same(cached?.jwks.keys.map((k) => k.kid), [(await lanyard.keyManager.publishedKids())[0]], 'the RP cached June’s key set');

  clock.set(new Date('2027-07-01T00:00:00.000Z'));
  await lanyard.app.lanyard.keyRotation.tick();
  // The relying party, a minute later (a new process that restored its persisted cache, as openid-client
  // documents): the cached key set is June's, old enough to be refreshed when a kid is unknown.
  const later = await relyingParty(lanyard.url);
  client.setJwksCache(later, { jwks: cached!.jwks, uat: cached!.uat - 61 });
  const july = await login(later);
  t.not(july.claims()?.sub, undefined, 'verified (signature checked against the re-fetched key set)');
  const julyKid = JSON.parse(Buffer.from(july.id_token!.split('.')[0]!, 'base64url').toString()).kid as string;
  t.not(julyKid, JSON.parse(Buffer.from(june.id_token!.split('.')[0]!, 'base64url').toString()).kid, 'signed with the new key');
  t.ok(client.getJwksCache(later)?.jwks.keys.some((k) => k.kid === julyKid), 'the RP re-fetched the key set by itself');
});
