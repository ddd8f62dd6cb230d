import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { openStore } from '../../adapters/open-store.js';
import { openSqliteStore } from '../../adapters/sqlite.js';
import { SCHEMA_VERSION } from '../../adapters/sqlite/migrate.js';
import { ENTRY_KINDS, type Store, type StoreEntry } from '../../adapters/store.js';
import { ManualClock, systemClock } from '../../src/clock.js';
import { projectRoot } from '../../src/package-files.js';
import { lanyard } from '../helpers/cli.js';
import { startRedis } from '../helpers/redis-server.js';
import { LANYARD_ARGV } from '../helpers/lanyard-command.js';

/** `lanyard store copy` and `lanyard store migrate`, run as the real command against real stores. */

const SECOND = 1000;
/** Lifetimes (seconds) of the protocol records in the source. */
const LIFETIMES = { Session: 3600, Grant: 7200, AccessToken: 600, RefreshToken: 86_400 } as const;

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-store-copy-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function collect(store: Store): Promise<StoreEntry[]> {
  const out: StoreEntry[] = [];
  for await (const e of store.exportEntries()) out.push(e);
  return out;
}

const oidcExpiries = (entries: StoreEntry[]) => new Map(entries.flatMap((e) => (e.kind === 'oidc' ? [[`${e.value.model}:${e.value.id}`, e.value.expiresAt] as const] : [])));

/** One of everything, on the real clock (the command uses it), plus an expired record that must not travel. */
async function fill(path: string) {
  const store = openSqliteStore(path, systemClock);
  try {
    const org = await store.upsertOrganisation({ slug: 'river-school', name: 'River School' });
    const user = await store.upsertUser({ organisationId: org.id, username: 'ada', givenName: 'Ada', familyName: 'Lovelace', type: 'student' });
    await store.setCredential(user.id, 'emoji', '$argon2id$emoji-hash');
    await store.issueBadge(user.id, org.id, 'badge-code-hash');
    const now = new Date().toISOString();
    // A deleted user leaves only a retired id, which must travel too (it is never given out again).
    const gone = await store.upsertUser({ organisationId: org.id, username: 'gone', givenName: 'G', familyName: 'One', type: 'student' });
    await store.deleteUser(gone.id, now);
    await store.putClient({
      clientId: 'planner', name: 'Planner', redirectUris: ['https://planner.example/cb'], defaultScopes: ['openid'],
      responseTypes: ['code'], source: 'config', status: 'live', createdAt: now, updatedAt: now, logoHash: 'h1',
    });
    await store.putClientLogo({ clientId: 'planner', hash: 'h1', contentType: 'image/png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]), sourceUrl: 'https://planner.example/logo.png', fetchedAt: now });
    await store.putClientSecret({ id: 's1', clientId: 'planner', hash: 'sha256:abc', label: 'main', createdAt: now });
    await store.putConnection({ organisationId: org.id, clientId: 'planner', position: 1, userTypes: ['student'], source: 'operator', createdAt: now });
    await store.createDeveloper({
      id: 'dev_1', email: 'grace@example.org', displayName: 'Grace', passwordHash: '$argon2id$dev', totpSecret: 'v1.iv.tag.totp',
      recoveryCodeHashes: ['sha256:r1'], createdAt: now, updatedAt: now,
    });
    await store.putTeamMember({ clientId: 'planner', developerId: 'dev_1', role: 'owner', addedAt: now });
    await store.putApiToken({
      id: 'tok_1', developerId: 'dev_1', hash: 'sha256:tok', label: 'ci', hint: '…wxyz', createdAt: now, expiresAt: '2099-01-01T00:00:00.000Z',
    });
    await store.appendDeveloperEvent({
      subject: 'app:planner', at: now, actorId: 'dev_1', actorName: 'Grace', action: 'app.registered', detail: { name: 'Planner' },
    });
    await store.insertKeyIfAbsent({
      kid: 'kid-1', month: '2027-01', notBefore: '2027-01-01T00:00:00.000Z', notAfter: '2027-02-28T23:59:59.000Z',
      certificate: 'cert', encryptedPrivateKey: 'v1.iv.tag.sealed', createdAt: now,
    });
    await store.putSetting('cookie-keys', 'ck');
    await store.oidc.upsert('Session', 'session-1', { uid: 'session-uid', accountId: user.id }, LIFETIMES.Session);
    await store.oidc.upsert('Grant', 'grant-1', { accountId: user.id, clientId: 'planner' }, LIFETIMES.Grant);
    await store.oidc.upsert('AccessToken', 'at-1', { grantId: 'grant-1' }, LIFETIMES.AccessToken);
    await store.oidc.upsert('RefreshToken', 'rt-1', { grantId: 'grant-1', uid: 'rt-uid' }, LIFETIMES.RefreshToken);
    await store.hitCounter('account:emoji:ada', 600);
    // One of each of the roster's kinds: Ada's source id and class, the school year, an extra role, the run, her last sign-in.
    await store.applyRoster({
      organisations: [],
      users: [{ id: user.id, organisationId: org.id, username: 'ada', givenName: 'Ada', familyName: 'Lovelace', type: 'student', sourceId: 'sis-ada' }],
      holds: [],
      memberships: { put: [{ userId: user.id, organisationId: org.id, role: 'aide' }], remove: [] },
      academicSessions: { put: [{ id: 'as-1', organisationId: org.id, sourcedId: 'sy-1', title: '2027', type: 'schoolYear' }], remove: [] },
      classes: {
        put: [{ id: 'cl-1', organisationId: org.id, sourcedId: 'math-1', title: 'Maths', grades: ['05'], subjects: [], periods: [], academicSessionIds: ['sy-1'] }],
        remove: [],
      },
      enrolments: { put: [{ classId: 'cl-1', userId: user.id, role: 'student', primary: false }], remove: [] },
      run: { id: 'run-1', at: now, by: 'cli:test', format: 'one-file', digest: 'sha', organisations: ['river-school'], counts: {} },
    });
    await store.recordSignIn(user.id, now);
    // One of each of the school console's kinds: an app's request, Ada as staff (a grant, two-step sign-in, an API
    // token), and a help code for her that is still good for an hour.
    await store.putAppRequest({ organisationId: org.id, clientId: 'planner', requestedBy: 'dev_1', requestedAt: now, note: 'Year 5', status: 'pending' });
    await store.putStaffGrant({ organisationId: org.id, userId: user.id, role: 'admin', source: 'operator', grantedAt: now });
    await store.putStaffSecondFactor({ userId: user.id, totpSecret: 'v1.iv.tag.staff', recoveryCodeHashes: ['sha256:s1', 'sha256:s2'], enabledAt: now, lastStep: 9 });
    await store.putStaffApiToken({ id: 'st_1', userId: user.id, hash: 'sha256:st', label: 'sis', hint: '…abcd', createdAt: now, expiresAt: '2099-01-01T00:00:00.000Z' });
    await store.putHelpCode({
      userId: user.id, organisationId: org.id, codeHash: 'hmac-help', createdAt: now, expiresAt: new Date(Date.now() + 3600 * SECOND).toISOString(),
      issuedBy: user.id, failures: 1,
    });
    await store.putClassLink({
      id: 'cl-link-1', organisationId: org.id, classId: 'cl-1', codeHash: 'hmac-class', createdAt: now,
      expiresAt: new Date(Date.now() + 3600 * SECOND).toISOString(), createdBy: { id: user.id, username: user.username },
    });
    await store.appendAudit([{ id: 'audit-1', organisationId: org.id, at: now, kind: 'sign_in', action: 'sign_in', actorId: user.id, subjectId: user.id, method: 'emoji', count: 1 }]);
  } finally {
    await store.close();
  }
  // Written a minute ago with a ten-second lifetime: already expired.
  const past = openSqliteStore(path, new ManualClock(Date.now() - 60 * SECOND));
  await past.oidc.upsert('AccessToken', 'expired', { grantId: 'old' }, 10);
  await past.close();
  return { filledAt: Date.now() };
}

/** Everything `fill` wrote is in the SQLite file at `target`: same ids, same expiry instants, same remaining lifetimes. */
async function assertCopied(t: Test, source: string, target: string, filledAt: number): Promise<void> {
  const [a, b] = [openSqliteStore(source, systemClock), openSqliteStore(target, systemClock)];
  t.teardown(async () => { await a.close(); await b.close(); });
  const org = (await a.findOrganisation('river-school'))!;
  const user = (await a.findUserByUsername(org.id, 'ada'))!;
  t.same(await b.findOrganisation('river-school'), org, 'organisation, same id');
  t.same(await b.findUser(user.id), user, 'user, same id');
  t.equal(await b.getCredential(user.id, 'emoji'), '$argon2id$emoji-hash', 'credential');
  t.same(await b.findBadge('badge-code-hash'), { userId: user.id, organisationId: org.id }, 'badge');
  t.same(await b.findClient('planner'), await a.findClient('planner'), 'client');
  t.same(await b.listClientSecrets('planner'), await a.listClientSecrets('planner'), 'client secret');
  t.same(await b.findClientLogo('planner', 'h1'), await a.findClientLogo('planner', 'h1'), 'client logo, its bytes');
  t.same(await b.listConnections(org.id), await a.listConnections(org.id), 'connection');
  t.same(await b.findDeveloperByEmail('grace@example.org'), await a.findDeveloper('dev_1'), 'developer account, same id');
  t.same(await b.listMemberships('dev_1'), await a.listTeam('planner'), 'team member');
  t.same(await b.listApiTokens('dev_1'), await a.listApiTokens('dev_1'), 'API token');
  t.same(await b.listDeveloperEvents('app:planner', 10), await a.listDeveloperEvents('app:planner', 10), 'history');
  t.same(await b.listKeys(), await a.listKeys(), 'signing key');
  t.equal(await b.getSetting('cookie-keys'), 'ck', 'setting');
  t.same(await b.oidc.findByUid('Session', 'session-uid'), await a.oidc.find('Session', 'session-1'), 'session');
  t.same(await b.oidc.find('Grant', 'grant-1'), await a.oidc.find('Grant', 'grant-1'), 'grant');
  t.same(await b.oidc.find('AccessToken', 'at-1'), { grantId: 'grant-1' }, 'access token');
  t.same(await b.oidc.findByUid('RefreshToken', 'rt-uid'), await a.oidc.find('RefreshToken', 'rt-1'), 'refresh token');
  t.equal(await b.oidc.find('AccessToken', 'expired'), undefined, 'the expired record stayed behind');
  t.equal((await b.peekCounter('account:emoji:ada'))?.count, 1, 'counter');
  t.same(await b.rosterSnapshot([org.id]), await a.rosterSnapshot([org.id]), 'the roster: the source id, class, school year, enrolment, membership');
  t.same(await b.listClasses(org.id), await a.listClasses(org.id), 'the class with its pupil');
  t.same(await b.listRosterImports(10), await a.listRosterImports(10), 'the import run');
  t.same(await b.lastSignIns(org.id), await a.lastSignIns(org.id), 'the last sign-in');
  t.same(await b.listAppRequests(org.id), await a.listAppRequests(org.id), "an app's request");
  t.same(await b.userStaffGrants(user.id), await a.userStaffGrants(user.id), 'the staff grant');
  t.same(await b.getStaffSecondFactor(user.id), await a.getStaffSecondFactor(user.id), 'two-step sign-in, its codes and last step');
  t.same(await b.listStaffApiTokens(user.id), await a.listStaffApiTokens(user.id), 'the staff API token');
  const now = new Date().toISOString();
  t.same(await b.findHelpCode(user.id, now), await a.findHelpCode(user.id, now), 'the help code');
  t.same(await b.findLiveClassLink('hmac-class', now), await a.findClassLink(org.id, 'cl-link-1'), 'the class link');
  t.same(await b.queryAudit({ organisationId: org.id, limit: 10 }), await a.queryAudit({ organisationId: org.id, limit: 10 }), 'the audit trail');

  const [before, after] = [oidcExpiries(await collect(a)), oidcExpiries(await collect(b))];
  t.same(after, before, 'the same expiry instants');
  const elapsed = Date.now() - filledAt;
  for (const [model, lifetime] of Object.entries(LIFETIMES)) {
    const remaining = [...after].find(([k]) => k.startsWith(`${model}:`))![1] - Date.now();
    t.ok(Math.abs(remaining - (lifetime * SECOND - elapsed)) < 5 * SECOND, `${model} keeps its remaining lifetime (${Math.round(remaining / SECOND)} s)`);
  }
  await b.oidc.revokeByGrantId('grant-1');
  t.equal(await b.oidc.find('AccessToken', 'at-1'), undefined, 'the grant index came along: revoking the grant works');
}

t.test('store copy: SQLite to a new SQLite file, everything with the same ids and the remaining lifetimes', async (t) => {
  const [from, to] = [tempDir(t), tempDir(t)];
  const source = join(from, 'lanyard.db');
  const target = join(to, 'copy.db');
  const { filledAt } = await fill(source);
  writeFileSync(join(from, 'key-encryption-key'), `${Buffer.alloc(32, 7).toString('base64')}\n`);

  const run = await lanyard(['store', 'copy', '--from', `sqlite:${source}`, '--to', `sqlite:${target}`]);
  t.equal(run.code, 0, run.stderr);

  // Not a terminal: one line per kind, in dependency order, then the table and the verdict on stdout.
  const kindLines = run.stderr.split('\n').filter((l) => l.startsWith('copied '));
  t.same(kindLines.map((l) => /^copied (\w+):/.exec(l)?.[1]), ENTRY_KINDS, 'a line per kind, in order');
  t.match(run.stderr, /^copied oidc: 4 \(32\/33 entries\)$/m, 'the kind, its count and the running total');
  t.notMatch(run.stderr, /\r/, 'no progress bar without a terminal');
  t.match(run.stdout, /^KIND\s+COPIED\s+IN TARGET$/m);
  for (const kind of ENTRY_KINDS) {
    const n = kind === 'oidc' ? 4 : 1;
    t.match(run.stdout, new RegExp(`^${kind}\\s+${n}\\s+${n}$`, 'm'), `${kind}: ${n} copied, ${n} held`);
  }
  t.match(run.stdout, `copied 33 entries from sqlite:${source} to sqlite:${target}; verified\n`);
  t.match(run.stderr, `note: signing keys are copied still encrypted: copy ${join(from, 'key-encryption-key')} to ${to}/`,
    'says where the key-encryption key is');
  t.equal(statSync(target).mode & 0o777, 0o600, 'the copy is readable by its owner only');

  await assertCopied(t, source, target, filledAt);
});

t.test('store copy: SQLite to Redis and back, nothing lost on the way', async (t) => {
  const redis = await startRedis(t, { aof: false });
  const dir = tempDir(t);
  const [source, back] = [join(dir, 'source.db'), join(dir, 'back.db')];
  const { filledAt } = await fill(source);
  const [prefix, other] = [`copy-${randomBytes(4).toString('hex')}`, `copy-${randomBytes(4).toString('hex')}`];
  // Required with a store that is not a local file; a Redis deployment sets it.
  const env = { LANYARD_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'), LANYARD_REDIS_PREFIX: prefix };

  const there = await lanyard(['store', 'copy', '--from', `sqlite:${source}`, '--to', redis.url], env);
  t.equal(there.code, 0, there.stderr);
  t.match(there.stdout, `copied 33 entries from sqlite:${source} to ${redis.url}; verified`);
  const inRedis = await openStore(redis.url, systemClock, { redisPrefix: prefix });
  t.teardown(() => inRedis.close());
  t.same(await inRedis.countEntries(), await countsOf(source), 'Redis holds what the file does, under LANYARD_REDIS_PREFIX');

  const across = await lanyard(['store', 'copy', '--from', redis.url, '--to', redis.url, '--prefix-to', other], env);
  t.equal(across.code, 0, across.stderr);
  t.match(across.stdout, /copied 33 entries .*; verified/, 'one server, two prefixes: two stores');

  const home = await lanyard(['store', 'copy', '--from', redis.url, '--prefix-from', other, '--to', `sqlite:${back}`], env);
  t.equal(home.code, 0, home.stderr);
  t.match(home.stdout, `copied 33 entries from ${redis.url} to sqlite:${back}; verified`);
  await assertCopied(t, source, back, filledAt);

  const again = await lanyard(['store', 'copy', '--from', `sqlite:${source}`, '--to', redis.url], env);
  t.equal(again.code, 1, 'the filled prefix is not empty any more');
  t.match(again.stderr, 'the target already holds 33 entries');

  const migrate = await lanyard(['store', 'migrate', '--store', redis.url], env);
  t.equal(migrate.code, 0, migrate.stderr);
  t.match(migrate.stdout, `${redis.url}: Redis keeps no schema; nothing to migrate`);
});

async function countsOf(path: string) {
  const store = openSqliteStore(path, systemClock);
  try {
    return await store.countEntries();
  } finally {
    await store.close();
  }
}

t.test('store copy refuses a target that holds entries, unless --merge', async (t) => {
  const dir = tempDir(t);
  const [source, target] = [join(dir, 'source.db'), join(dir, 'target.db')];
  await fill(source);
  const existing = openSqliteStore(target, systemClock);
  await existing.upsertOrganisation({ slug: 'hill-school', name: 'Hill School' });
  await existing.putSetting('theme', 'blue');
  await existing.close();

  const refused = await lanyard(['store', 'copy', '--from', `sqlite:${source}`, '--to', `sqlite:${target}`]);
  t.equal(refused.code, 1);
  t.match(refused.stderr, 'the target already holds 2 entries (organisation 1, setting 1)');
  t.match(refused.stderr, /--merge/);
  t.equal(refused.stdout, '', 'nothing copied, nothing summed up');
  const untouched = openSqliteStore(target, systemClock);
  t.equal((await untouched.countEntries()).user, 0, 'the target is untouched');
  await untouched.close();

  const merged = await lanyard(['store', 'copy', '--from', `sqlite:${source}`, '--to', `sqlite:${target}`, '--merge']);
  t.equal(merged.code, 0, merged.stderr);
  t.match(merged.stdout, /^organisation\s+1\s+2$/m, 'its own organisation and the copied one');
  t.match(merged.stdout, /^setting\s+1\s+2$/m);
  t.match(merged.stdout, /copied 33 entries .*; verified/);
});

t.test('store copy refuses nonsense before touching anything, and never prints a password', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'lanyard.db');
  await fill(db);

  const same = await lanyard(['store', 'copy', '--from', `sqlite:${db}`, '--to', `sqlite:${dir}/./../${dir.split('/').pop()}/lanyard.db`]);
  t.equal(same.code, 1);
  t.match(same.stderr, /--from and --to name the same store/);

  const redis = await lanyard(['store', 'copy', '--from', 'redis://ops:hunter2@127.0.0.1:1', '--to', 'redis://other:hunter2@127.0.0.1:1/0']);
  t.equal(redis.code, 1);
  t.match(redis.stderr, '--from and --to name the same store (redis://ops:***@127.0.0.1:1)');
  t.notMatch(redis.stdout + redis.stderr, /hunter2/, 'the password is never printed');

  const missing = join(dir, 'typo.db');
  const typo = await lanyard(['store', 'copy', '--from', `sqlite:${missing}`, '--to', `sqlite:${join(dir, 'b.db')}`]);
  t.equal(typo.code, 1);
  t.match(typo.stderr, 'no such database file');
  t.notOk(existsSync(missing), 'a mistyped source is not created');

  const unknown = await lanyard(['store', 'copy', '--from', `sqlite:${db}`, '--to', `sqlite:${join(dir, 'b.db')}`, '--marge']);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, 'unknown option --marge');
  t.match((await lanyard(['store', 'copy', '--to', `sqlite:${db}`])).stderr, '--from and --to are required');
});

t.test('store copy draws a progress bar on a terminal', async (t) => {
  const dir = tempDir(t);
  const source = join(dir, 'source.db');
  await fill(source);
  const command = [process.execPath, ...LANYARD_ARGV, 'store', 'copy',
    '--from', `sqlite:${source}`, '--to', `sqlite:${join(dir, 'target.db')}`].map((a) => `'${a}'`).join(' ');
  // script(1) runs the command on a pseudo-terminal, as an operator's shell would.
  const run = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: projectRoot, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
  t.equal(run.status, 0, 'exits 0');
  t.match(run.stdout, /\r\[█{24}\] 33\/33 100% counter/, 'the bar, redrawn in place, ends full');
  t.notMatch(run.stdout, /^copied organisation:/m, 'no per-kind lines on a terminal');
  t.match(run.stdout, /copied 33 entries .*; verified/);
});

t.test('store migrate reports the schema version before and after', async (t) => {
  const dir = tempDir(t);
  const fresh = join(dir, 'fresh', 'lanyard.db');
  const created = await lanyard(['store', 'migrate', '--store', `sqlite:${fresh}`]);
  t.equal(created.code, 0, created.stderr);
  t.match(created.stdout, 'schema version before: none (no database yet)');
  t.match(created.stdout, `schema version after: ${SCHEMA_VERSION}`);
  t.match(created.stdout, `migrated to schema version ${SCHEMA_VERSION}`);

  const again = await lanyard(['store', 'migrate'], { LANYARD_STORE: `sqlite:${fresh}` });
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, `store: sqlite:${fresh}`, 'LANYARD_STORE by default');
  t.match(again.stdout, `already at schema version ${SCHEMA_VERSION}; nothing to do`);

  // A database from Lanyard 0.1.0, before schema versions existed.
  const old = join(dir, 'old.db');
  copyFileSync(join(projectRoot, 'test/fixtures/lanyard-0.1.0.db'), old);
  const upgraded = await lanyard(['store', 'migrate', '--store', `sqlite:${old}`]);
  t.equal(upgraded.code, 0, upgraded.stderr);
  t.match(upgraded.stdout, /schema version before: 0\n/);
  t.match(upgraded.stdout, `schema version after: ${SCHEMA_VERSION}`);
  const db = new Database(old, { readonly: true });
  t.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  db.close();
});

t.test('store --help and store copy --help print usage and exit 0', async (t) => {
  const group = await lanyard(['store', '--help']);
  t.equal(group.code, 0);
  t.match(group.stdout, /Usage: lanyard store <command>[\s\S]*copy --from URL --to URL[\s\S]*migrate \[--store URL\]/);
  const copy = await lanyard(['store', 'copy', '--help']);
  t.equal(copy.code, 0);
  t.match(copy.stdout, /Usage: lanyard store copy[\s\S]*--merge[\s\S]*--prefix-from/);
  const migrate = await lanyard(['store', 'migrate', '--help']);
  t.equal(migrate.code, 0);
  t.match(migrate.stdout, /Usage: lanyard store migrate \[--store URL\]/);
  t.match((await lanyard(['--help'])).stdout, /store copy --from URL --to URL/, 'listed in lanyard --help');
  const none = await lanyard(['store']);
  t.equal(none.code, 1, 'a group without a command is an error');
  t.match(none.stderr, 'store needs a command');
});
