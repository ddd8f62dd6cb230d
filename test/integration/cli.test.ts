import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import t from 'tap';
import { openSqliteStore } from '../../adapters/sqlite.js';
import { systemClock } from '../../src/clock.js';
import { freePort } from '../helpers/lanyard.js';
import { lanyard } from '../helpers/cli.js';
import { argon2Verify } from '../../src/accounts/credential-hasher.js';

t.test('clients secret prints a 256-bit secret and its SHA-256 hash; clients hash refuses short secrets', async (t) => {
  const run = await lanyard(['clients', 'secret']);
  t.equal(run.code, 0);
  const secret = /secret \(give it to the app[^:]*: (\S+)/.exec(run.stdout)?.[1];
  const hash = /hash \(add to the client's "secret_hashes"\): (\S+)/.exec(run.stdout)?.[1];
  t.ok(secret && secret.length >= 43, 'a 256-bit secret');
  t.equal(hash, `sha256:${createHash('sha256').update(secret!).digest('base64url')}`, 'its SHA-256 hash');
  const again = await lanyard(['clients', 'secret']);
  t.not(/secret \(give[^:]*: (\S+)/.exec(again.stdout)?.[1], secret, 'a new secret every time');

  const chosen = 'a-long-operator-chosen-random-secret-value-0123456789';
  const hashed = await lanyard(['clients', 'hash'], {}, `${chosen}\n`);
  t.equal(hashed.code, 0);
  t.equal(hashed.stdout.trim(), `sha256:${createHash('sha256').update(chosen).digest('base64url')}`);
  const short = await lanyard(['clients', 'hash'], {}, 'too-short\n');
  t.equal(short.code, 1, 'a short secret is refused');
  t.match(short.stderr, /at least 32 random characters/);
});

t.test('import creates organisations and users that can then sign in', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-cli-'));
  const file = join(dir, 'people.json');
  writeFileSync(file, JSON.stringify({
    clients: [],
    organisations: [{
      slug: 'river-school',
      name: 'River School',
      users: [{ username: 'ada', password: 'ada-password', given_name: 'Ada', family_name: 'Lovelace', type: 'student' }],
    }],
  }));
  const store = `sqlite:${join(dir, 'lanyard.db')}`;
  const run = await lanyard(['import', file], { LANYARD_STORE: store });
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /imported 1 organisation\(s\), 1 user\(s\); 1 password\(s\) set/);
  t.notMatch(run.stdout + run.stderr, /ada-password/, 'password never printed');

  t.equal(statSync(join(dir, 'lanyard.db')).mode & 0o777, 0o600, 'the database is readable by its owner only');
  const db = openSqliteStore(join(dir, 'lanyard.db'), systemClock);
  t.teardown(() => db.close());
  const org = await db.findOrganisation('river-school');
  t.equal(org?.name, 'River School');
  const user = await db.findUserByUsername(org!.id, 'ada');
  t.equal(user?.givenName, 'Ada');
  t.match(await db.getCredential(user!.id, 'password'), /^\$argon2id\$/);

  const again = await lanyard(['import', file], { LANYARD_STORE: store });
  t.match(again.stdout, /0 password\(s\) set/, 're-import with the same password does not re-hash');
  t.equal((await db.findUserByUsername(org!.id, 'ada'))?.id, user!.id, 'same id (sub) after re-import');
});

t.test('a bad config file stops startup with the JSON path and the problem', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-cli-'));
  const file = join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify({ clients: [{ client_id: 'x', name: 'X', secrets: ['long-enough'], redirect_uris: ['not a url'] }] }));
  const run = await lanyard(['serve'], { LANYARD_CONFIG: file, LANYARD_STORE: `sqlite:${join(dir, 'l.db')}`, PORT: String(await freePort()) });
  t.equal(run.code, 78, 'exits with EX_CONFIG');
  t.match(run.stderr, file);
  t.match(run.stderr, '/clients/0/redirect_uris/0');

  const prod = await lanyard(['serve'], { NODE_ENV: 'production', LANYARD_STORE: `sqlite:${join(dir, 'p.db')}` });
  t.equal(prod.code, 78, 'production refuses the demo');
  t.match(prod.stderr, /demo configuration is development-only/);
  t.match(prod.stderr, /LANYARD_COOKIE_KEYS/);
});

t.test('users hash: argon2id hashes for a configuration file without plaintext credentials, which then sign in', async (t) => {
  const password = 'correct horse battery staple';
  const hashed = await lanyard(['users', 'hash'], {}, `${password}\n`);
  t.equal(hashed.code, 0, hashed.stderr);
  const hash = hashed.stdout.trim();
  t.match(hash, /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/, 'argon2id with Lanyard’s parameters');
  t.notMatch(hashed.stdout + hashed.stderr, /horse/, 'the password is not printed');
  t.not((await lanyard(['users', 'hash'], {}, password)).stdout.trim(), hash, 'another salt each time');

  const emoji = await lanyard(['users', 'hash', '--emoji'], {}, 'dog, apple,rocket,star,cat,pizza\n');
  t.equal(emoji.code, 0, emoji.stderr);
  const emojiHash = emoji.stdout.trim();
  t.match(emojiHash, /^\$argon2id\$/);

  for (const [what, args, input, message] of [
    ['a short password', ['users', 'hash'], 'short', /8 to 1024 characters/],
    ['five emoji', ['users', 'hash', '--emoji'], 'dog,apple,rocket,star,cat', /6 emoji names separated by commas/],
    ['a name not in the bank', ['users', 'hash', '--emoji'], 'dog,apple,rocket,star,cat,unicorn-x', /6 emoji names separated by commas/],
  ] as const) {
    const refused = await lanyard([...args], {}, input);
    t.equal(refused.code, 1, `${what}: refused`);
    t.match(refused.stderr, message, `${what}: says why`);
    t.equal(refused.stdout, '', `${what}: no hash`);
  }

  // The hashes in a file that production accepts: the teacher signs in with the password, the store keeps the emoji hash.
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-cli-'));
  const file = join(dir, 'school.json');
  writeFileSync(file, JSON.stringify({
    clients: [],
    organisations: [{ slug: 'hill-school', name: 'Hill School', users: [
      { username: 'ada', given_name: 'Ada', family_name: 'Jones', type: 'employee', password_hash: hash, emoji_password_hash: emojiHash },
    ] }],
  }));
  const check = await lanyard(['check-config', file, '--production'], { LANYARD_ISSUER: 'https://id.example.org', LANYARD_COOKIE_KEYS: 'a'.repeat(32) });
  t.notMatch(check.stdout + check.stderr, /password/, 'check-config --production finds nothing wrong with the users');
  const store = `sqlite:${join(dir, 'lanyard.db')}`;
  t.equal((await lanyard(['import', file], { LANYARD_STORE: store })).code, 0);
  const db = openSqliteStore(join(dir, 'lanyard.db'), systemClock);
  t.teardown(() => db.close());
  const user = await db.findUserByUsername((await db.findOrganisation('hill-school'))!.id, 'ada');
  t.ok(await argon2Verify((await db.getCredential(user!.id, 'password'))!, password), 'the stored hash takes the password');
  t.ok(await argon2Verify((await db.getCredential(user!.id, 'emoji'))!, 'dog,apple,rocket,star,cat,pizza'), 'and the emoji password, in its canonical form');
});
