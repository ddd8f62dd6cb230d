import t from 'tap';
import { loadConfig } from '../../../src/config/config.js';
import { demoSignIns, startupSummary } from '../../../src/startup/summary.js';

t.test('the demo configuration: a demo user for every sign-in method', async (t) => {
  const signIns = demoSignIns(loadConfig({}).file);
  t.same(signIns.map((s) => [s.method, s.username]), [
    ['password', 'teacher'], ['password', 'pupil'], ['emoji', 'emoji-kid'], ['badge', 'badge-kid'],
  ]);
  t.match(signIns.find((s) => s.method === 'emoji')!.secret, '🐶 🍎 🚀 ⭐ 🐱 🍕 (dog, apple, rocket, star, cat, pizza)');
  t.match(signIns.find((s) => s.method === 'badge')!.secret, 'BADG-EDEM-0000-0000-0000-0000-01');
});

t.test('only a development configuration shows credentials, and only for the methods its organisation offers', async (t) => {
  const file = loadConfig({}).file;
  t.same(demoSignIns({ ...file, development: false }), [], 'not a development configuration: nothing shown');
  const emojiOnly = { ...file, organisations: file.organisations!.map((o) => ({ ...o, login_methods: ['emoji' as const] })) };
  t.same(demoSignIns(emojiOnly).map((s) => s.username), ['emoji-kid']);
});

t.test('the summary says where Lanyard is, who to sign in as, where the data is, and what is unsafe', async (t) => {
  const text = startupSummary({
    issuer: 'http://localhost:3000',
    demoAppUrl: 'http://localhost:8080/',
    developerSignup: 'invite',
    signIns: demoSignIns(loadConfig({}).file),
    store: 'sqlite:./data/lanyard.db',
    dataDir: '/srv/lanyard/data',
    keyEncryptionKey: '/srv/lanyard/data/key-encryption-key',
    warnings: ['LANYARD_COOKIE_KEYS unset: cookie signing keys are generated and kept in the store'],
  });
  t.match(text, /^\nLanyard is ready\.\n\n  Open +http:\/\/localhost:3000\/  \(use this address: a page asked for under another name of this host is sent here\)\n/,
    'first, the address to open (pages under another name of the host are sent there)');
  t.match(text, /Issuer +http:\/\/localhost:3000\n/);
  t.match(text, /Discovery +http:\/\/localhost:3000\/\.well-known\/openid-configuration\n/);
  t.match(text, /Demo App +http:\/\/localhost:8080\//);
  t.match(text, /Developer area +http:\/\/localhost:3000\/developer  \(an account: npm run lanyard -- developers invite/);
  t.match(text, 'Demo users of Demo School (organisation "demo-school")');
  t.match(text, /password +teacher \/ teacher-pass — Tess Teacher, employee\n/);
  t.match(text, /emoji password +emoji-kid \/ 🐶/);
  t.match(text, /badge +badge-kid \/ BADG-EDEM-0000-0000-0000-0000-01/);
  t.match(text, /Store +sqlite:\.\/data\/lanyard\.db\n/);
  t.match(text, /Data directory +\/srv\/lanyard\/data\n/);
  t.match(text, '! LANYARD_COOKIE_KEYS unset');
  t.notMatch(text, /[{}]"/, 'no JSON');
});

t.test('without the demo: no Demo App line, no users; a Redis store names its prefix', async (t) => {
  const text = startupSummary({
    issuer: 'https://id.example.org', signIns: [], store: 'redis://ops:***@redis:6379', redisPrefix: 'lanyard',
    keyEncryptionKey: 'LANYARD_KEY_ENCRYPTION_KEY', warnings: [], developerSignup: 'open',
  });
  t.notMatch(text, /Demo App|Demo users|Warnings|Data directory/);
  t.match(text, 'sign up at https://id.example.org/developer/sign-up');
  t.match(text, 'redis://ops:***@redis:6379 (key prefix "lanyard")');
});

t.test('pretty on a terminal, JSON elsewhere, unless LANYARD_LOG_FORMAT says', async (t) => {
  const { prettyOutput } = await import('../../../src/startup/startup.js');
  const config = loadConfig({});
  t.equal(prettyOutput(config, { isTTY: true }), true, 'a terminal');
  t.equal(prettyOutput(config, {}), false, 'a pipe or a file');
  t.equal(prettyOutput(loadConfig({ LANYARD_LOG_FORMAT: 'json' }), { isTTY: true }), false, 'json asked on a terminal');
  t.equal(prettyOutput(loadConfig({ LANYARD_LOG_FORMAT: 'pretty' }), {}), true, 'pretty asked into a pipe');
});
