import { Writable } from 'node:stream';
import pino from 'pino';
import t from 'tap';
import { loggerOptions, redactUrl } from '../../src/logging.js';

const params = (url: string) => new URL(url, 'http://x').searchParams;

t.test('redactUrl hides credential values and keeps everything else', async (t) => {
  const url = '/oauth/token?grant_type=authorization_code&code=SECRET-CODE&client_secret=SECRET-CS'
    + '&refresh_token=SECRET-RT&password=SECRET-PW&state=abc&redirect_uri=https%3A%2F%2Fapp.example%2Fcb';
  const out = redactUrl(url);
  t.notMatch(out, /SECRET/, 'no secret value left');
  t.match(out, /^\/oauth\/token\?/, 'path kept');
  const p = params(out);
  for (const key of ['code', 'client_secret', 'refresh_token', 'password']) {
    t.equal(p.get(key), '[redacted]', `${key} replaced`);
  }
  t.equal(p.get('grant_type'), 'authorization_code', 'grant_type kept');
  t.equal(p.get('state'), 'abc', 'state kept');
  t.equal(p.get('redirect_uri'), 'https://app.example/cb', 'redirect_uri kept (same value)');
  t.same([...p.keys()], ['grant_type', 'code', 'client_secret', 'refresh_token', 'password', 'state', 'redirect_uri'], 'order kept');
});

t.test('redactUrl: other credentials, any case, repeated or encoded names', async (t) => {
  for (const key of ['access_token', 'id_token', 'id_token_hint', 'token', 'code_verifier', 'client_assertion']) {
    t.equal(params(redactUrl(`/x?${key}=SECRET`)).get(key), '[redacted]', key);
  }
  t.notMatch(redactUrl('/x?CODE=SECRET&Client_Secret=SECRET'), /SECRET/, 'names in another case');
  t.notMatch(redactUrl('/x?code=SECRET1&code=SECRET2'), /SECRET/, 'a repeated name');
  t.notMatch(redactUrl('/x?client%5Fsecret=SECRET'), /SECRET/, 'a percent-encoded name');
  t.equal(params(redactUrl('/x?codename=visible')).get('codename'), 'visible', 'only whole names match');
});

t.test('redactUrl leaves URLs without a query alone', async (t) => {
  t.equal(redactUrl('/.well-known/openid-configuration'), '/.well-known/openid-configuration');
  t.equal(redactUrl('/interaction/abc/password'), '/interaction/abc/password');
});

t.test('the logger redacts request URLs, credentials headers and password fields', async (t) => {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  const log = pino(loggerOptions('info'), stream);
  log.info({ req: { method: 'GET', url: '/oauth/authorize?code=SECRET-A&state=s', ip: '127.0.0.1', headers: { authorization: 'Basic SECRET-B' } } }, 'request');
  log.info({ body: { password: 'SECRET-C', username: 'ann' }, client: { client_secret: 'SECRET-D', client_id: 'app' } }, 'fields');
  const text = lines.join('');
  t.notMatch(text, /SECRET/, 'no secret in any log line');
  t.match(text, /"username":"ann"/, 'other fields logged');
  t.match(text, /"client_id":"app"/, 'client_id logged');
  t.match(text, /state=s/, 'harmless query parameters logged');
});

t.test('redactUrl writes a readable marker and keeps other pairs byte for byte', async (t) => {
  t.equal(redactUrl('/oauth/token?code=abc&redirect_uri=https%3A%2F%2Fa.example%2Fcb'),
    '/oauth/token?code=[redacted]&redirect_uri=https%3A%2F%2Fa.example%2Fcb');
});

t.test('a developer API token is redacted wherever it appears in a URL', async (t) => {
  const token = `lyd_0123456789abcdef_${'S'.repeat(43)}`;
  t.equal(redactUrl(`/developer/api/apps?api_key=${token}&x=1`), '/developer/api/apps?api_key=[redacted]&x=1');
  t.equal(redactUrl(`/developer/api/${token}/apps`), '/developer/api/[redacted]/apps');
  t.equal(redactUrl('/developer/api/apps?q=lyd_'), '/developer/api/apps?q=lyd_', 'only token-shaped values');
});

t.test('percent-encoding hides no credential from redactUrl: it matches what the server decodes', async (t) => {
  const token = `lyd_0123456789abcdef_${'S'.repeat(43)}`;
  const invitation = 'I'.repeat(43);
  for (const url of [
    `/developer/%69nvitations/${invitation}`, `/%64eveloper/invitations/${invitation}`, `/developer/invitations/${invitation}/accept`,
    `//developer//invitations//${invitation}`, `/developer/invitations/${encodeURIComponent(invitation)}%2Fx`,
  ]) {
    t.notMatch(redactUrl(url), /I{43}/, `the invitation's token: ${url}`);
  }
  for (const url of [
    `/developer/api/me?t=${token.replace(/_/g, '%5F')}`, `/developer/api/me?t=${token.replace('lyd', '%6Cyd')}`,
    `/developer/api/me?t=${encodeURIComponent(`x ${token}`)}`, `/developer/api/me?${token}`, `/developer/api/${token.replace(/_/g, '%5f')}/apps`,
  ]) {
    t.notMatch(redactUrl(url), /S{43}/, `the API token: ${url}`);
  }
  t.equal(redactUrl(`/developer/api/me?t=${token.replace(/_/g, '%5F')}&x=%5F`), '/developer/api/me?t=[redacted]&x=%5F', 'the rest as sent');
  t.equal(redactUrl('/developer/%69nvitations/'), '/developer/%69nvitations/', 'nothing to hide');
  t.equal(redactUrl('/x?q=%E0%A4%A'), '/x?q=%E0%A4%A', 'text that does not decode is kept as sent');
});

t.test('a class code in a path is redacted: /class/<CODE> opens a class\'s names (docs/school-console.md → Class links)', async (t) => {
  const code = 'ABCDE12345';
  t.equal(redactUrl(`/class/${code}`), '/class/[redacted]');
  t.equal(redactUrl(`/class/${code}?lang=es`), '/class/[redacted]?lang=es', 'the query kept');
  for (const url of [`/class/ABCDE-12345`, `/%63lass/${code}`, `//class//${code}`, `/Class/${code}`, `/class/${code}/more`, `/class/${encodeURIComponent(`${code}/x`)}`]) {
    t.notMatch(redactUrl(url), /ABCDE/, `the code: ${url}`);
  }
  t.equal(redactUrl('/class'), '/class', 'the form for typing a code: nothing to hide');
  t.equal(redactUrl('/class/'), '/class/', 'nor here');
  t.equal(redactUrl('/school/x/classes/c1/class-link'), '/school/x/classes/c1/class-link', 'a class page is not a code');
  t.equal(redactUrl(`/signin?next=${encodeURIComponent(`/class/${code}`)}`), `/signin?next=${encodeURIComponent('/class/[redacted]')}`, 'inside next');
});
