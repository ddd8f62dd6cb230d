import t from 'tap';
import { checkUrl, MAX_URL_LENGTH } from '../../../src/clients/callback-url.js';

const refused = (input: string, kind: Parameters<typeof checkUrl>[1] = 'callback') => {
  const r = checkUrl(input, kind);
  if (r.ok) throw new Error(`expected ${input} to be refused`);
  return r.message;
};

t.test('accepted callback URLs are kept exactly as given (only surrounding whitespace dropped)', async (t) => {
  for (const url of [
    'https://app.example.com/callback',
    'https://app.example.com:8443/cb?tenant=a&x=1',
    'https://APP.example.com/Callback/',
    'http://127.0.0.1:8080/callback',
    'http://[::1]:3000/cb',
    'http://localhost/callback',
    'http://LOCALHOST:5000/cb',
    'https://bücher.example/cb',
  ]) {
    t.same(checkUrl(url, 'callback'), { ok: true, url }, url);
  }
  t.same(checkUrl('  https://app.example.com/cb \n', 'callback'), { ok: true, url: 'https://app.example.com/cb' }, 'trimmed');
});

t.test('each refusal has its own message', async (t) => {
  const messages = {
    empty: refused(''),
    long: refused(`https://app.example.com/${'a'.repeat(MAX_URL_LENGTH)}`),
    space: refused('https://app.example.com/a b'),
    backslash: refused('https://app.example.com\\@evil.example/'),
    wildcard: refused('https://*.example.com/callback'),
    wildcardPath: refused('https://app.example.com/*'),
    fragment: refused('https://app.example.com/cb#done'),
    emptyFragment: refused('https://app.example.com/cb#'),
    relative: refused('/callback'),
    noScheme: refused('app.example.com/callback'),
    hostPort: refused('localhost:3000/callback'),
    scheme: refused('com.example.app://callback'),
    javascript: refused('javascript://alert(1)'),
    noHost: refused('https:/app.example.com/cb'),
    invalid: refused('https://exa mple.com'.replace(' ', '%zz')),
    userinfo: refused('https://good.example@evil.example/cb'),
    emptyUserinfo: refused('https://@evil.example/cb'),
    password: refused('https://u:p@app.example.com/cb'),
    http: refused('http://app.example.com/callback'),
    httpLookalike: refused('http://localhost.evil.example/cb'),
    httpOtherLoopback: refused('http://127.0.0.2/cb'),
  };
  t.match(messages.empty, /Enter a URL/);
  t.match(messages.long, /at most 2000 characters/);
  t.match(messages.space, /spaces, line breaks or backslashes/);
  t.match(messages.backslash, /backslashes/);
  t.match(messages.wildcard, /wildcard \(\*\)/);
  t.match(messages.wildcardPath, /wildcard/);
  t.match(messages.fragment, /fragment/);
  t.match(messages.emptyFragment, /fragment/);
  t.match(messages.relative, /absolute URL/);
  t.match(messages.noScheme, /absolute URL/);
  t.match(messages.hostPort, /absolute URL/);
  t.match(messages.scheme, /com\.example\.app: URLs are not accepted/);
  t.match(messages.javascript, /javascript: URLs are not accepted/);
  t.match(messages.noHost, /must name a host/);
  t.match(messages.invalid, /not a valid URL/);
  t.match(messages.userinfo, /user name or password/);
  t.match(messages.emptyUserinfo, /user name or password/);
  t.match(messages.password, /user name or password/);
  t.match(messages.http, /must use https:\/\/.*127\.0\.0\.1, \[::1\] or localhost/);
  t.equal(messages.httpLookalike, messages.http, 'a look-alike of localhost is not loopback');
  t.equal(messages.httpOtherLoopback, messages.http, 'only the three named loopback hosts');
  const distinct = new Set([messages.empty, messages.long, messages.space, messages.wildcard, messages.fragment, messages.relative,
    messages.scheme, messages.noHost, messages.invalid, messages.userinfo, messages.http]);
  t.equal(distinct.size, 11, 'every kind of refusal says something different');
});

t.test('initiate login URIs: the callback rules (https or loopback http; no fragment, wildcard or user info), each refusal naming it', async (t) => {
  for (const url of ['https://app.example.com/login/lanyard', 'https://app.example.com/login?from=lanyard', 'http://localhost:8080/login', 'http://127.0.0.1/login', 'http://[::1]:3000/login']) {
    t.same(checkUrl(url, 'initiateLogin'), { ok: true, url }, url);
  }
  const r = (input: string) => refused(input, 'initiateLogin');
  t.match(r(''), /^Enter a URL, for example https:\/\/app\.example\.com\/login\/lanyard/);
  t.match(r('not a url'), /^An initiate login URI cannot contain spaces/);
  t.match(r('app.example.com/login'), /^An initiate login URI must be an absolute URL/);
  t.match(r('ftp://app.example.com/login'), /^An initiate login URI must start with https:\/\/.*ftp: URLs are not accepted/);
  t.match(r('http://app.example.com/login'), /^An initiate login URI must use https:\/\/\. Plain http:\/\/ is allowed only on your own machine/);
  t.match(r('http://localhost.evil.example/login'), /must use https/);
  t.match(r('https://app.example.com/login#start'), /^An initiate login URI cannot contain a fragment .*iss, login_hint and target_link_uri/);
  t.match(r('https://ada:pw@app.example.com/login'), /^An initiate login URI cannot contain a user name or password/);
  t.match(r('https://*.example.com/login'), /^An initiate login URI cannot contain a wildcard \(\*\): Lanyard sends the browser to exactly the URI registered/);
  t.match(r(`https://app.example.com/${'a'.repeat(MAX_URL_LENGTH)}`), /^An initiate login URI can be at most 2000 characters long/);
  t.match(refused('https://app.example.com/cb#x'), /the code is sent in the query/, 'the callback message is unchanged');
});

t.test('logout, homepage and logo URLs: the same https rule; fragments allowed; wildcards only refused where matching is exact', async (t) => {
  t.same(checkUrl('https://app.example.com/#/signed-out', 'logout'), { ok: true, url: 'https://app.example.com/#/signed-out' });
  t.match(refused('https://app.example.com/*', 'logout'), /^A logout URL cannot contain a wildcard/);
  t.match(refused('http://app.example.com/', 'logout'), /^A logout URL must use https/);
  t.same(checkUrl('https://app.example.com/#about', 'homepage'), { ok: true, url: 'https://app.example.com/#about' });
  t.match(refused('http://app.example.com/', 'homepage'), /^A homepage must use https/);
  t.match(refused('ftp://app.example.com/logo.png', 'logo'), /^A logo URL must start with https/);
  t.match(refused('https://u@app.example.com/logo.png', 'logo'), /user name/);
});
