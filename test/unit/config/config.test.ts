import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ConfigError } from '../../../src/errors.js';
import { loadConfig } from '../../../src/config/config.js';
import { readConfigFile } from '../../../src/config/file.js';
import { demoConfigPath, projectRoot } from '../../../src/package-files.js';

const dir = mkdtempSync(join(tmpdir(), 'lanyard-config-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** Writes a config file (an object as JSON, or raw text) and returns its path. */
function configFile(content: unknown): string {
  const path = join(dir, `config-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const HASH = 'sha256:f8yx58a2BsWFJYUcwb_hve7SJRoH_vwOJp4TgtPJdAY';
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';
const COOKIE_KEYS = `${'a'.repeat(32)},${'b'.repeat(40)}`;

/** A valid development configuration; tests break one thing at a time. */
const devConfig = () => ({
  clients: [
    { client_id: 'app', name: 'App', secrets: ['app-secret-1'], redirect_uris: ['http://localhost:8080/cb'] },
  ],
  organisations: [
    {
      slug: 'school',
      name: 'School',
      users: [{ username: 'ann', given_name: 'Ann', family_name: 'Able', type: 'student', password: 'ann-password' }],
    },
  ],
});

/** A valid production configuration: hashed secrets and passwords, https (or loopback) redirect URIs. */
const prodConfig = () => ({
  clients: [
    {
      client_id: 'app', name: 'App', secret_hashes: [HASH],
      redirect_uris: ['https://app.example.com/cb', 'http://127.0.0.1:8080/cb', 'http://localhost/cb', 'http://[::1]:9000/cb'],
    },
  ],
  organisations: [
    {
      slug: 'school',
      name: 'School',
      users: [{ username: 'ann', given_name: 'Ann', family_name: 'Able', type: 'student', password_hash: PASSWORD_HASH }],
    },
  ],
});
const prodEnv = (path: string, extra: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  LANYARD_CONFIG: path,
  LANYARD_ISSUER: 'https://idp.example.org',
  LANYARD_COOKIE_KEYS: COOKIE_KEYS,
  ...extra,
});

/** loadConfig must throw a ConfigError whose message contains every fragment. */
function refused(t: Test, env: Record<string, string>, fragments: (string | RegExp)[], what: string) {
  let error: unknown;
  try {
    loadConfig(env);
  } catch (err) {
    error = err;
  }
  t.ok(error instanceof ConfigError, `${what}: a ConfigError`);
  const message = error instanceof Error ? error.message : '';
  for (const f of fragments) t.match(message, f, `${what}: names ${String(f)}`);
  return error as ConfigError | undefined;
}

t.test('defaults: PORT 3000, localhost issuer, SQLite under ./data, the demo configuration', async (t) => {
  const config = loadConfig({});
  t.equal(config.port, 3000, 'PORT');
  t.equal(config.issuer, 'http://localhost:3000', 'issuer');
  t.equal(config.storeUrl, 'sqlite:./data/lanyard.db', 'store');
  t.equal(config.configPath, demoConfigPath, 'the demo configuration');
  t.equal(config.file.development, true, 'which is a development configuration');
  t.equal(config.host, '127.0.0.1', 'host: this machine only, for the demo’s passwords are public');
  t.equal(config.logLevel, 'info', 'log level');
  t.equal(config.trustProxy, 0, 'proxy headers not trusted');
  t.equal(config.production, false, 'not production');
  t.equal(config.cookieKeys, undefined, 'no cookie keys');
  t.equal(config.keyEncryptionKey, undefined, 'no KEK');
  t.equal(config.serviceDocumentation, 'http://localhost:3000/docs', 'documentation under the issuer');
  t.match(config.warnings.join('\n'), /DEVELOPMENT CONFIGURATION/, 'loud warning: demo configuration');
  t.match(config.warnings.join('\n'), /plaintext client secrets/, 'warning: plaintext secrets');
  t.match(config.warnings.join('\n'), /plaintext user credentials/, 'warning: plaintext passwords');
  t.match(config.warnings.join('\n'), /LANYARD_COOKIE_KEYS unset/, 'warning: generated cookie keys');
  t.equal(loadConfig({ PORT: '8080' }).issuer, 'http://localhost:8080', 'the default issuer follows PORT');
});

t.test('HOST: this machine only for a development configuration, every address otherwise; a warning when a development one is reachable', async (t) => {
  t.equal(loadConfig({ LANYARD_CONFIG: configFile(devConfig()) }).host, '0.0.0.0', 'a configuration of your own: every address');
  const dev = loadConfig({ LANYARD_CONFIG: configFile({ ...devConfig(), development: true }) });
  t.equal(dev.host, '127.0.0.1', 'one marked development: this machine only');
  t.notMatch(dev.warnings.join('\n'), /other machines/, 'no warning on loopback');
  t.equal(loadConfig({ LANYARD_CONFIG: configFile(prodConfig()), HOST: '10.0.0.5' }).host, '10.0.0.5', 'HOST decides where set');
  for (const host of ['0.0.0.0', '192.0.2.7']) {
    const demo = loadConfig({ HOST: host });
    t.equal(demo.host, host, `the demo on HOST=${host}`);
    t.match(demo.warnings.join('\n'), new RegExp(`HOST=${host.replace(/\./g, '\\.')}: other machines can reach this development configuration`), `warns on HOST=${host}`);
  }
  t.notMatch(loadConfig({ HOST: 'localhost' }).warnings.join('\n'), /other machines/, 'localhost is this machine');
  t.notMatch(loadConfig({ LANYARD_CONFIG: configFile(prodConfig()), HOST: '0.0.0.0' }).warnings.join('\n'), /other machines/, 'nor for a configuration not marked development');
});

t.test('LANYARD_DEMO_APP: on, off, or a port that moves the Demo App with the demo client\'s callback and logout URL', async (t) => {
  const demoClient = (config: ReturnType<typeof loadConfig>) => config.file.clients.find((c) => c.client_id === 'demo-app')!;
  const standard = loadConfig({});
  t.equal(standard.demoApp, true, 'on by default with the demo');
  t.same(demoClient(standard).redirect_uris, ['http://localhost:8080/callback'], 'at 8080 by default');
  t.equal(loadConfig({ LANYARD_DEMO_APP: 'on' }).demoApp, true, 'on');
  t.equal(loadConfig({ LANYARD_DEMO_APP: 'off' }).demoApp, false, 'off');
  const moved = loadConfig({ LANYARD_DEMO_APP: '8181' });
  t.equal(moved.demoApp, true, 'a port: on');
  t.same(demoClient(moved).redirect_uris, ['http://localhost:8181/callback'], 'the callback moves to the port');
  t.equal(demoClient(moved).logout_url, 'http://localhost:8181/signed-out', 'and the logout URL');
  t.equal(demoClient(moved).name, 'Demo App', 'nothing else changes');
  t.same(moved.file.clients.filter((c) => c.client_id !== 'demo-app'), standard.file.clients.filter((c) => c.client_id !== 'demo-app'), 'nor any other client');
  const own = loadConfig({ LANYARD_CONFIG: configFile(devConfig()), LANYARD_DEMO_APP: '8181' });
  t.equal(own.demoApp, false, 'never with a configuration of your own');
  t.same(own.file.clients[0]!.redirect_uris, ['http://localhost:8080/cb'], 'whose clients stay as written');
  t.equal(loadConfig({ LANYARD_DEMO_APP: '8181', NODE_ENV: 'production', LANYARD_CONFIG: configFile(prodConfig()), LANYARD_COOKIE_KEYS: COOKIE_KEYS, LANYARD_ISSUER: 'https://idp.example.org' }).demoApp, false, 'nor in production');
  for (const value of ['yes', '8o80', '0', '65536', '-1', '80.5', ' 8080']) {
    refused(t, { LANYARD_DEMO_APP: value }, [`LANYARD_DEMO_APP: "${value}" must be on, off or the port to serve the Demo App on (1-65535)`], `LANYARD_DEMO_APP=${value}`);
  }
  refused(t, { LANYARD_DEMO_APP: '4000', PORT: '4000' }, ['LANYARD_DEMO_APP: 4000 is Lanyard\'s own PORT'], 'Lanyard\'s own port');
});

t.test('environment settings are applied', async (t) => {
  const kek = randomBytes(32);
  const config = loadConfig({
    PORT: '4000', HOST: '127.0.0.1', LANYARD_ISSUER: 'https://idp.example.org/', LANYARD_STORE: 'sqlite:/var/lib/l.db',
    LANYARD_COOKIE_KEYS: ` ${'k'.repeat(32)} , ${'m'.repeat(32)} `, LANYARD_KEY_ENCRYPTION_KEY: kek.toString('base64'),
    LANYARD_TRUST_PROXY: 'true', LANYARD_LOG_LEVEL: 'warn',
  });
  t.equal(config.port, 4000);
  t.equal(config.host, '127.0.0.1');
  t.equal(config.issuer, 'https://idp.example.org', 'trailing slash removed from the issuer');
  t.equal(config.storeUrl, 'sqlite:/var/lib/l.db');
  t.same(config.cookieKeys, ['k'.repeat(32), 'm'.repeat(32)], 'cookie keys split and trimmed');
  t.ok(config.keyEncryptionKey?.equals(kek), 'KEK decoded');
  t.equal(config.trustProxy, 1, 'true: one proxy');
  t.equal(config.logLevel, 'warn');
  t.notMatch(config.warnings.join('\n'), /COOKIE_KEYS/, 'no cookie-key warning when they are set');
});

t.test('config/example.json and config/demo.json are valid', async (t) => {
  const example = join(projectRoot, 'config', 'example.json');
  t.ok(readConfigFile(example).clients.length > 0, 'example.json validates');
  t.ok(readConfigFile(demoConfigPath).clients.length > 0, 'demo.json validates');
  const prod = loadConfig(prodEnv(example));
  t.equal(prod.production, true, 'example.json is accepted in production');
  t.same(prod.warnings, [], 'with no warning');
});

t.test('bad config files: the error names the file, the JSON path and the problem', async (t) => {
  const bad = (content: unknown, fragments: (string | RegExp)[], what: string) => {
    const path = configFile(content);
    refused(t, { LANYARD_CONFIG: path }, [path, ...fragments], what);
  };
  const withClient = (change: Record<string, unknown>) => {
    const c = devConfig();
    Object.assign(c.clients[0]!, change);
    return c;
  };
  const withUser = (change: Record<string, unknown>) => {
    const c = devConfig();
    Object.assign(c.organisations[0]!.users[0]!, change);
    return c;
  };

  bad('{ "clients": [ ', [/not valid JSON/], 'not JSON');
  bad({ organisations: [] }, ['/: ', /required property 'clients'/], 'missing clients');
  bad(withClient({ colour: 'blue' }), ['/clients/0', /unknown property "colour"/], 'unknown property in a client');
  bad({ ...devConfig(), colour: 'blue' }, [/unknown property "colour"/], 'unknown top-level property');
  bad(withClient({ redirect_uris: ['not a url'] }), ['/clients/0/redirect_uris/0', /must match/], 'redirect_uri not a URL');
  bad(withClient({ redirect_uris: ['https://app.example.com/cb#frag'] }), ['/clients/0/redirect_uris/0', /must match pattern/], 'redirect_uri with a fragment');
  bad(withClient({ redirect_uris: ['ftp://app.example.com/cb'] }), ['/clients/0/redirect_uris/0'], 'redirect_uri not http(s)');
  bad(withClient({ redirect_uris: [] }), ['/clients/0/redirect_uris', /fewer than 1/], 'no redirect_uri');
  bad(withClient({ secrets: undefined }), ['/clients/0', /at least one secret/], 'client without any secret');
  bad(withClient({ secrets: [], secret_hashes: [] }), ['/clients/0', /at least one secret/], 'client with empty secret lists');
  bad(withClient({ secret_hashes: ['plain-not-a-hash'] }), ['/clients/0/secret_hashes/0', /must match pattern/], 'secret_hash not sha256:<base64url>');
  bad(withClient({ secrets: ['short'] }), ['/clients/0/secrets/0', /fewer than 8/], 'secret too short');
  for (const hash of ['$argon2id$v=19$…', '$argon2id$', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA', '$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA']) {
    bad(withUser({ password: undefined, password_hash: hash }), ['/organisations/0/users/0/password_hash: is not an argon2id hash', 'make one with `lanyard users hash`'], `password_hash ${hash}`);
  }
  bad(withUser({ emoji_password_hash: '$argon2id$v=19$…' }), ['/organisations/0/users/0/emoji_password_hash: is not an argon2id hash', '`lanyard users hash --emoji`'], 'a placeholder emoji_password_hash');
  bad(withClient({ response_types: ['token'] }), ['/clients/0/response_types/0', /must be one of/], 'unknown response type');
  const dup = devConfig();
  dup.clients.push({ ...dup.clients[0]!, name: 'Twin' });
  bad(dup, ['/clients/1/client_id', /duplicate client_id "app"/], 'duplicate client_id');
  const dupUser = devConfig();
  dupUser.organisations[0]!.users.push({ ...dupUser.organisations[0]!.users[0]!, username: 'ANN' });
  bad(dupUser, ['/organisations/0/users/1/username', /duplicate username "ANN"/], 'duplicate username (any case) in an org');
  const dupOrg = devConfig();
  dupOrg.organisations.push({ slug: 'school', name: 'Again', users: [] });
  bad(dupOrg, ['/organisations/1/slug', /duplicate slug/], 'duplicate organisation slug');
  bad(withUser({ email: 'not-an-email' }), ['/organisations/0/users/0/email', /must match format "email"/], 'bad email');
  bad(withUser({ google_email: 'a@b@c' }), ['/organisations/0/users/0/google_email', /format "email"/], 'bad google_email');
  bad(withUser({ password_hash: PASSWORD_HASH }), ['/organisations/0/users/0', /"password" or "password_hash", not both/], 'password AND password_hash');
  bad(withUser({ type: 'Teacher!' }), ['/organisations/0/users/0/type', /must match pattern/], 'bad user type');
  bad(withUser({ given_name: undefined }), ['/organisations/0/users/0', /required property 'given_name'/], 'missing given_name');
  const withOrg = (change: Record<string, unknown>) => {
    const c = devConfig();
    Object.assign(c.organisations[0]!, change);
    return c;
  };
  bad(withOrg({ language: 'de' }), ['/organisations/0/language', /must be one of/, /en, es, fr, ar|"en"/], 'a language Lanyard does not speak');
  bad(withOrg({ class_sign_in: { surname_initial: 'yes' } }), ['/organisations/0/class_sign_in/surname_initial', /must be boolean/], 'surname_initial not a boolean');
  bad(withOrg({ class_sign_in: { surnames: true } }), ['/organisations/0/class_sign_in', /unknown property "surnames"/], 'unknown property in class_sign_in');
  const badSlug = devConfig();
  badSlug.organisations[0]!.slug = 'Has Spaces';
  bad(badSlug, ['/organisations/0/slug', /must match pattern/], 'bad slug');
  for (const word of ['account', 'api', 'sign-in', 'sign-out']) {
    const consoleWord = devConfig();
    consoleWord.organisations[0]!.slug = word;
    bad(consoleWord, ['/organisations/0/slug', /school console's own addresses/], `the console's own word "${word}" as a slug`);
  }
  bad(withUser({ staff_roles: ['owner'] }), ['/organisations/0/users/0/staff_roles/0', /must be one of \["admin","teacher"\]/], 'an unknown console role');
});

t.test('a missing config file is named', async (t) => {
  const path = join(dir, 'does-not-exist.json');
  refused(t, { LANYARD_CONFIG: path }, [path, /cannot read file \(ENOENT\)/], 'missing file');
});

t.test('several problems are all reported at once', async (t) => {
  const c = devConfig();
  Object.assign(c.clients[0]!, { colour: 'blue', redirect_uris: ['nope'] });
  const path = configFile(c);
  const err = refused(t, { LANYARD_CONFIG: path }, [/colour/, /redirect_uris\/0/], 'two file problems');
  t.ok((err?.problems.length ?? 0) >= 2, 'listed separately');
  refused(t, { LANYARD_CONFIG: path, PORT: 'eighty' }, [/colour/, /PORT: "eighty"/], 'a bad file AND a bad variable');
  refused(t, { PORT: '99999', LANYARD_COOKIE_KEYS: 'short', LANYARD_ISSUER: 'nope' }, [/PORT/, /LANYARD_COOKIE_KEYS/, /LANYARD_ISSUER/], 'three bad variables');
});

t.test('bad environment variables are named with the problem', async (t) => {
  for (const port of ['abc', '70000', '-1', '80.5', '65536']) {
    refused(t, { PORT: port }, [`PORT: "${port}"`, /not a port number/], `PORT=${port}`);
  }
  for (const issuer of ['not a url', 'ftp://idp.example.org', 'https://idp.example.org/?a=1', 'https://idp.example.org/#x']) {
    refused(t, { LANYARD_ISSUER: issuer }, [`LANYARD_ISSUER: "${issuer}"`], `LANYARD_ISSUER=${issuer}`);
  }
  refused(t, { LANYARD_ISSUER: 'https://school.example/idp' }, [/LANYARD_ISSUER: "https:\/\/school.example\/idp" must not have a path/], 'issuer with a path');
  refused(t, { LANYARD_COOKIE_KEYS: 'too-short' }, [/LANYARD_COOKIE_KEYS: .*at least 32 characters/], 'short cookie key');
  refused(t, { LANYARD_COOKIE_KEYS: `${'a'.repeat(32)},short` }, [/LANYARD_COOKIE_KEYS/], 'one short key among good ones');
  refused(t, { LANYARD_COOKIE_KEYS: ' , , ' }, [/LANYARD_COOKIE_KEYS/], 'only separators');
  refused(t, { LANYARD_KEY_ENCRYPTION_KEY: 'c2hvcnQ=' }, [/LANYARD_KEY_ENCRYPTION_KEY: must be 32 bytes/], 'KEK of 5 bytes');
  refused(t, { LANYARD_KEY_ENCRYPTION_KEY: randomBytes(48).toString('base64') }, [/LANYARD_KEY_ENCRYPTION_KEY/], 'KEK of 48 bytes');
  refused(t, { LANYARD_LOG_LEVEL: 'loud' }, [/LANYARD_LOG_LEVEL: "loud"/], 'unknown log level');
});

t.test('NODE_ENV=production refuses every unsafe development default', async (t) => {
  const prodOk = configFile(prodConfig());
  refused(t, prodEnv('', { LANYARD_CONFIG: '' }), [/LANYARD_CONFIG: is unset, and the demo configuration is development-only/], 'demo configuration');
  refused(t, prodEnv(demoConfigPath), [/development configuration is refused/], 'the demo file named explicitly');
  refused(t, prodEnv(configFile({ ...prodConfig(), development: true })), ['/development'], 'a file marked development');

  const secrets = prodConfig();
  Object.assign(secrets.clients[0]!, { secrets: ['plain-secret'] });
  const secretsPath = configFile(secrets);
  refused(t, prodEnv(secretsPath), [secretsPath, '/clients/0/secrets', /plaintext secrets are refused/], 'plaintext client secret');

  const passwords = prodConfig();
  passwords.organisations[0]!.users[0] = { ...passwords.organisations[0]!.users[0]!, password_hash: undefined, password: 'plain-password' } as never;
  const passwordsPath = configFile(passwords);
  refused(t, prodEnv(passwordsPath), [passwordsPath, '/organisations/0/users/0/password', /plaintext passwords are refused/], 'plaintext password');

  const { LANYARD_COOKIE_KEYS: _, ...noCookies } = prodEnv(prodOk);
  refused(t, noCookies, [/LANYARD_COOKIE_KEYS: required in production/], 'missing cookie keys');
  refused(t, prodEnv(prodOk, { LANYARD_ISSUER: 'http://idp.example.org' }), [/LANYARD_ISSUER: "http:\/\/idp.example.org" must be an https URL/], 'http issuer');
  const { LANYARD_ISSUER: __, ...noIssuer } = prodEnv(prodOk);
  refused(t, noIssuer, [/LANYARD_ISSUER: "http:\/\/localhost:3000" must be an https URL/], 'the default http issuer');

  for (const [i, uri] of ['http://app.example.com/cb', 'http://localhost.evil.example/cb', 'http://localhost@evil.example/cb', 'http://10.0.0.1/cb'].entries()) {
    const c = prodConfig();
    c.clients[0]!.redirect_uris = [uri];
    const path = configFile(c);
    refused(t, prodEnv(path), [path, '/clients/0/redirect_uris/0', /must be https \(or http on loopback\)/], `redirect ${i}: ${uri}`);
  }

  const logout = prodConfig();
  Object.assign(logout.clients[0]!, { logout_url: 'http://app.example.com/bye' });
  const logoutPath = configFile(logout);
  refused(t, prodEnv(logoutPath), [logoutPath, '/clients/0/logout_url', /must be https/], 'http logout_url');
  const docs = { ...prodConfig(), service_documentation: 'http://docs.example.com/' };
  refused(t, prodEnv(configFile(docs)), ['/service_documentation', /must be https/], 'http service_documentation');

  const config = loadConfig(prodEnv(prodOk));
  t.equal(config.production, true, 'a proper production configuration loads');
  t.equal(config.issuer, 'https://idp.example.org', 'with its https issuer');
  t.same(config.cookieKeys, ['a'.repeat(32), 'b'.repeat(40)], 'and its cookie keys');
  t.same(config.warnings, [], 'and no warning');
  t.same(config.file.clients[0]?.redirect_uris.slice(1), ['http://127.0.0.1:8080/cb', 'http://localhost/cb', 'http://[::1]:9000/cb'], 'http on loopback allowed');
});

t.test('an organisation slug may not look like an organisation id', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'lanyard-slug-')), 'c.json');
  writeFileSync(path, JSON.stringify({ clients: [], organisations: [{ slug: 'o123456789012345', name: 'Sneaky' }] }));
  t.throws(() => readConfigFile(path), ConfigError);
  t.throws(() => readConfigFile(path), /\/organisations\/0\/slug/);
});

t.test('LANYARD_TRUST_PROXY: a number of hops, never "everything"', async (t) => {
  const env = (v: string) => ({ LANYARD_STORE: 'sqlite::memory:', LANYARD_TRUST_PROXY: v });
  t.equal(loadConfig(env('2')).trustProxy, 2);
  t.equal(loadConfig(env('no')).trustProxy, 0);
  t.throws(() => loadConfig(env('everything')), /LANYARD_TRUST_PROXY: "everything" must be/);
});
