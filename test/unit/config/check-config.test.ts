import t from 'tap';
import { checkConfig, loadConfig } from '../../../src/config/config.js';
import { ConfigError } from '../../../src/errors.js';
import { writeConfig } from '../../helpers/config-file.js';

const COOKIE_KEYS = `${'a'.repeat(32)},${'b'.repeat(40)}`;

t.test('production: every reason serve would refuse, each with its variable or JSON path', async (t) => {
  const path = writeConfig((c) => {
    c.service_documentation = 'http://docs.example.org';
    c.clients[0]!.redirect_uris = ['http://app.example.org/callback'];
    c.clients[0]!.logout_url = 'http://app.example.org/signed-out';
  });
  const { config, problems, production } = checkConfig({ LANYARD_CONFIG: path, NODE_ENV: 'production' });
  t.equal(config, undefined);
  t.equal(production, true);
  const expected = [
    'LANYARD_COOKIE_KEYS: required in production',
    'LANYARD_ISSUER: "http://localhost:3000" must be an https URL in production',
    `${path}: /development: a development configuration is refused in production`,
    `${path}: /clients/0/secrets: plaintext secrets`,
    `${path}: /clients/0/redirect_uris/0: must be https`,
    `${path}: /clients/0/logout_url: must be https`,
    `${path}: /organisations/0/users/0/password: plaintext passwords`,
    `${path}: /organisations/0/users/1/password: plaintext passwords`,
    `${path}: /organisations/0/users/2/emoji_password: plaintext emoji passwords`,
    `${path}: /organisations/0/users/3/badge_code: fixed badge codes`,
    `${path}: /service_documentation: must be https in production`,
  ];
  for (const fragment of expected) t.ok(problems.some((p) => p.startsWith(fragment)), fragment);
  t.equal(problems.length, expected.length, problems.join('\n'));

  let thrown: unknown;
  try {
    loadConfig({ LANYARD_CONFIG: path, NODE_ENV: 'production' });
  } catch (err) {
    thrown = err;
  }
  t.ok(thrown instanceof ConfigError, 'serve refuses');
  t.same((thrown as ConfigError).problems, problems, 'with the same list check-config prints');
});

t.test('one run finds every problem: the schema\'s, the rules it cannot express, and production\'s, in the same file', async (t) => {
  const path = writeConfig((c) => {
    c.clients[0]!.secrets = ['short']; // the schema: at least 8 characters (and production: no plaintext secrets)
    c.clients.push({ ...c.clients[0]!, secrets: ['long-enough-secret'], redirect_uris: ['http://app.example.org/callback'] }); // a duplicate client_id
    c.organisations![0]!.users![0]!.password_hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA'; // beside its password
  });
  const { problems } = checkConfig({ LANYARD_CONFIG: path, NODE_ENV: 'production' });
  for (const fragment of [
    `${path}: /clients/0/secrets/0: must NOT have fewer than 8 characters`,
    `${path}: /clients/1/client_id: duplicate client_id`,
    `${path}: /organisations/0/users/0: give "password" or "password_hash", not both`,
    `${path}: /clients/1/redirect_uris/0: must be https`,
    `${path}: /organisations/0/users/0/password: plaintext passwords`,
    `${path}: /development: a development configuration is refused in production`,
    'LANYARD_COOKIE_KEYS: required in production',
  ]) t.ok(problems.some((p) => p.startsWith(fragment)), fragment);

  const broken = writeConfig((c) => { (c as unknown as { clients: unknown }).clients = 'none'; });
  t.match(checkConfig({ LANYARD_CONFIG: broken, NODE_ENV: 'production' }).problems.join('\n'), `${broken}: /clients: must be array`,
    'a file too broken for the other checks: the schema\'s problem, and no crash');
});

t.test('the production switch and another file are the only differences from serve', async (t) => {
  const path = writeConfig(() => {});
  t.same(checkConfig({}, { configPath: path }).problems, [], 'valid outside production');
  t.ok(checkConfig({}, { configPath: path }).config?.warnings.length, 'with its warnings');
  const prod = checkConfig({ LANYARD_ISSUER: 'https://id.example.org', LANYARD_COOKIE_KEYS: COOKIE_KEYS }, { configPath: path, production: true });
  t.equal(prod.production, true);
  t.ok(prod.problems.length > 0, '--production applies the production rules');
  t.notOk(prod.problems.some((p) => /LANYARD_(ISSUER|COOKIE_KEYS)/.test(p)), 'the environment is taken into account');
});

t.test('a file that cannot be read does not hide the environment\'s problems', async (t) => {
  const { problems } = checkConfig({ LANYARD_CONFIG: '/nonexistent/lanyard.json', NODE_ENV: 'production', LANYARD_TRUST_PROXY: 'maybe' });
  t.match(problems.join('\n'), '/nonexistent/lanyard.json: cannot read file');
  t.match(problems.join('\n'), 'LANYARD_COOKIE_KEYS');
  t.match(problems.join('\n'), 'LANYARD_ISSUER');
  t.match(problems.join('\n'), 'LANYARD_TRUST_PROXY');
});

t.test('LANYARD_LOG_FORMAT: json, pretty, or unset (the terminal decides)', async (t) => {
  t.equal(loadConfig({}).logFormat, undefined);
  t.equal(loadConfig({ LANYARD_LOG_FORMAT: 'json' }).logFormat, 'json');
  t.equal(loadConfig({ LANYARD_LOG_FORMAT: 'pretty' }).logFormat, 'pretty');
  t.match(checkConfig({ LANYARD_LOG_FORMAT: 'yaml' }).problems.join('\n'), 'LANYARD_LOG_FORMAT: "yaml" must be json or pretty');
});
