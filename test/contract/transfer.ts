import type { Test } from 'tap';
import type { EntryKind, Store, StoreEntry } from '../../adapters/store.js';
import { ENTRY_KINDS } from '../../adapters/store.js';
import { consoleTransferContract } from './console-transfer.js';
import { developersSnapshot, fillDevelopers } from './developers.js';
import { type Fresh, orgAndUser, SECOND, START, storedKey } from './harness.js';
import { sampleLogo } from './logos.js';
import { fillRoster, NORTH, noChanges, PAM, PIP, rosterState, run, SOUTH, TESS } from './roster-fixtures.js';

async function collect(store: Store): Promise<StoreEntry[]> {
  const out: StoreEntry[] = [];
  for await (const e of store.exportEntries()) out.push(e);
  return out;
}

/** One of everything, with an expired record and counter that must not travel. */
async function fill(store: Store, clock: { advance(ms: number): void }) {
  const { org, user } = await orgAndUser(store);
  await store.setCredential(user.id, 'emoji', '$argon2id$emoji');
  await store.issueBadge(user.id, org.id, 'badge-hash');
  await store.putClient({
    clientId: 'app', name: 'App', redirectUris: ['https://app.example/cb'], defaultScopes: ['openid'], responseTypes: ['code'],
    source: 'config', status: 'live', createdAt: START.toISOString(), updatedAt: START.toISOString(), logoutUrl: 'https://app.example/bye',
    logoUrl: 'https://app.example/logo.png', logoHash: 'h1',
  });
  await store.putClientLogo(sampleLogo('app', 'h1'));
  await store.putClientSecret({ id: 's1', clientId: 'app', hash: 'sha256:x', label: 'main', createdAt: START.toISOString() });
  await store.putConnection({ organisationId: org.id, clientId: 'app', position: 2, userTypes: ['student'], source: 'operator', createdAt: START.toISOString() });
  await fillDevelopers(store);
  await store.insertKeyIfAbsent(storedKey('2027-01', 'k1'));
  await store.replaceKey('k1', storedKey('2027-01', 'k2'), START.toISOString());
  await store.putSetting('cookie-key', 'ck');
  await store.oidc.upsert('Session', 'gone', { uid: 'g' }, 5);
  await store.hitCounter('gone-counter', 5);
  clock.advance(10 * SECOND);
  await store.oidc.upsert('Grant', 'grant-1', { accountId: user.id }, 3600);
  await store.oidc.upsert('RefreshToken', 'rt', { grantId: 'grant-1', uid: 'rt-uid' }, 1000);
  await store.oidc.consume('RefreshToken', 'rt');
  await store.oidc.upsert('AccessToken', 'at', { grantId: 'grant-1', clientId: 'app' }, 3600);
  await store.hitCounter('account:emoji:x', 600);
  return { org, user };
}

/** Transfer: everything exports in dependency order and imports elsewhere unchanged, lifetimes kept. */
export function transferContract(t: Test, fresh: Fresh): void {
  consoleTransferContract(t, fresh);

  t.test('transfer: export lists every live entry in dependency order', async (t) => {
    const { store, clock } = await fresh(t);
    await fill(store, clock);
    const entries = await collect(store);
    const order = entries.map((e) => ENTRY_KINDS.indexOf(e.kind));
    t.same(order, [...order].sort((a, b) => a - b), 'kinds in ENTRY_KINDS order');
    const counts = await store.countEntries();
    for (const kind of ENTRY_KINDS) {
      t.equal(entries.filter((e) => e.kind === kind).length, counts[kind], `${kind}: export and count agree`);
    }
    t.equal(counts.key, 2, 'revoked keys travel too');
    t.equal(counts.oidc, 3, 'the expired record is left out');
    t.equal(counts.counter, 1, 'the expired counter is left out');
    t.ok(counts.organisation === 1 && counts.user === 1 && counts.credential === 1 && counts.badge === 1, 'directory and badge');
    t.ok(counts.client === 1 && counts.client_secret === 1 && counts.client_logo === 1 && counts.connection === 1, 'client, secret, logo and connection');
    t.same([counts.developer, counts.team_member, counts.api_token, counts.developer_event], [2, 2, 2, 4], 'the developer area');
  });

  t.test('transfer: import into another store gives the same data, the same ids and the remaining lifetimes', async (t) => {
    const source = await fresh(t);
    const target = await fresh(t);
    const { org, user } = await fill(source.store, source.clock);
    target.clock.set(source.clock.now());
    const entries = await collect(source.store);
    await target.store.importEntries(entries);
    t.same(await target.store.countEntries(), await source.store.countEntries(), 'counts agree');
    t.same(await target.store.findOrganisation(org.slug), org, 'organisation, same id');
    t.same(await target.store.findUserByUsername(org.id, 'teacher'), user, 'user, same id');
    t.equal(await target.store.getCredential(user.id, 'emoji'), '$argon2id$emoji', 'credential');
    t.same(await target.store.findBadge('badge-hash'), { userId: user.id, organisationId: org.id }, 'badge');
    t.same(await target.store.findClient('app'), await source.store.findClient('app'), 'client');
    t.same(await target.store.listClientSecrets('app'), await source.store.listClientSecrets('app'), 'secrets');
    t.same(await target.store.findClientLogo('app', 'h1'), await source.store.findClientLogo('app', 'h1'), 'logo, its bytes too');
    t.same(await target.store.listConnections(org.id), await source.store.listConnections(org.id), 'connections');
    t.same(await target.store.listClientConnections('app'), await source.store.listClientConnections('app'), 'connections, both directions');
    t.same(await target.store.listKeys(), await source.store.listKeys(), 'keys, revoked one included');
    t.equal(await target.store.getSetting('cookie-key'), 'ck', 'setting');
    t.same(await target.store.oidc.findByUid('RefreshToken', 'rt-uid'), await source.store.oidc.find('RefreshToken', 'rt'), 'consumed refresh token');
    t.equal((await target.store.peekCounter('account:emoji:x'))?.count, 1, 'counter');
    target.clock.advance(999 * SECOND);
    t.ok(await target.store.oidc.find('RefreshToken', 'rt'), 'still live just before its time');
    target.clock.advance(2 * SECOND);
    t.equal(await target.store.oidc.find('RefreshToken', 'rt'), undefined, 'expires when it would have at the source');
    t.ok(await target.store.oidc.find('Grant', 'grant-1'), 'the grant lives on');
    await target.store.oidc.revokeByGrantId('grant-1');
    t.equal(await target.store.oidc.find('AccessToken', 'at'), undefined, 'grant index rebuilt: revoke by grant works');
    t.same(await developersSnapshot(target.store), await developersSnapshot(source.store),
      'developer accounts, teams both ways, tokens, and events in their order');
    t.equal(await target.store.createDeveloper({ ...(await source.store.findDeveloper('dev_1'))!, id: 'dev_new', email: 'ADA@example.org' }),
      false, 'email index rebuilt: the email stays taken');
    t.equal((await target.store.findDeveloperByEmail('bea@example.org'))?.id, 'dev_2', 'found by email');
    t.equal(await target.store.deleteApiToken('dev_2', 'tok_2'), true, 'token index rebuilt: the owner deletes it');
  });

  t.test('transfer: the roster travels whole, and its lookups work in the target', async (t) => {
    const source = await fresh(t);
    const target = await fresh(t);
    await fillRoster(source.store);
    await source.store.applyRoster({ ...noChanges(run('run-2', '2027-01-16T00:00:00.000Z')), holds: [{ userId: PAM, hold: 'left', at: '2027-01-16T00:00:00.000Z' }] });
    await source.store.recordSignIn(PIP, '2027-01-16T08:00:00.000Z');
    const entries = await collect(source.store);
    const order = entries.map((e) => ENTRY_KINDS.indexOf(e.kind));
    t.same(order, [...order].sort((a, b) => a - b), 'kinds in ENTRY_KINDS order');
    const counts = await source.store.countEntries();
    t.same([counts.academic_session, counts.class, counts.enrolment, counts.membership, counts.roster_import, counts.sign_in],
      [1, 2, 4, 1, 2, 1], 'every roster kind counted');
    for (const kind of ENTRY_KINDS) t.equal(entries.filter((e) => e.kind === kind).length, counts[kind], `${kind}: export and count agree`);
    t.ok(ENTRY_KINDS.indexOf('user') < ENTRY_KINDS.indexOf('enrolment') && ENTRY_KINDS.indexOf('class') < ENTRY_KINDS.indexOf('enrolment'),
      'enrolments after the users and classes they refer to');

    await target.store.importEntries(entries);
    t.same(await target.store.countEntries(), counts, 'counts agree');
    t.same(await rosterState(target.store), await rosterState(source.store), 'users (source ids, holds), classes, sessions, enrolments, memberships, runs');
    t.same(await target.store.findOrganisation(NORTH), await source.store.findOrganisation(NORTH), "the organisation's source id");
    t.same(await target.store.findUser(PAM), await source.store.findUser(PAM), 'the held user');
    t.same(await target.store.listClasses(NORTH), await source.store.listClasses(NORTH), 'classes with teachers and pupils');
    t.same(await target.store.findClass(NORTH, 'src-c1'), await source.store.findClass(NORTH, 'c1'), 'a class by its sourced id');
    t.same(await target.store.userMemberships(TESS), [{ userId: TESS, organisationId: SOUTH, role: 'teacher' }], "a user's memberships");
    t.same((await target.store.rosterSnapshot([SOUTH])).memberships, [{ userId: TESS, organisationId: SOUTH, role: 'teacher' }], 'and the school\'s');
    t.same(await target.store.lastSignIns(NORTH), new Map([[PIP, '2027-01-16T08:00:00.000Z']]), 'sign-in times');
    t.same((await target.store.leaversBefore('2028-01-01T00:00:00.000Z')).map((u) => u.id), [PAM], 'leavers');
    await target.store.deleteUser(TESS, '2027-02-01T00:00:00.000Z');
    t.same(await target.store.classEnrolments('c2'), await source.store.classEnrolments('c2'), 'a class Tess did not attend is unchanged');
    t.same((await target.store.classEnrolments('c1')).map((e) => e.userId), [PIP, PAM], 'her enrolment went with her: the user index was rebuilt');
    const again = await fresh(t);
    await again.store.importEntries(entries);
    await again.store.importEntries(entries);
    t.same(await again.store.countEntries(), counts, 'importing twice duplicates nothing');
  });

  t.test('transfer: revocation by client reaches imported records', async (t) => {
    const source = await fresh(t);
    const target = await fresh(t);
    await fill(source.store, source.clock);
    target.clock.set(source.clock.now());
    await target.store.importEntries(await collect(source.store));
    t.equal(await target.store.oidc.revokeByClientId('app'), 1, 'the client\'s token removed');
    t.equal(await target.store.oidc.find('AccessToken', 'at'), undefined, 'gone');
    t.ok(await target.store.oidc.find('Grant', 'grant-1'), 'what names no client stays');
  });

  t.test('transfer: importing the same entries twice changes nothing', async (t) => {
    const source = await fresh(t);
    const target = await fresh(t);
    await fill(source.store, source.clock);
    target.clock.set(source.clock.now());
    const entries = await collect(source.store);
    await target.store.importEntries(entries);
    await target.store.importEntries(entries);
    t.same(await target.store.countEntries(), await source.store.countEntries(), 'no duplicates');
    t.same(await developersSnapshot(target.store), await developersSnapshot(source.store), 'events not repeated, their order kept');
    const kinds: EntryKind[] = ['user', 'client_secret', 'client_logo', 'connection', 'developer', 'team_member', 'api_token', 'developer_event', 'key'];
    for (const kind of kinds) t.ok((await target.store.countEntries())[kind] > 0, `${kind} present`);
  });

  t.test('transfer: importing into a populated store updates in place and keeps what only the target has', async (t) => {
    const source = await fresh(t);
    const target = await fresh(t);
    const { org, user } = await fill(source.store, source.clock);
    target.clock.set(source.clock.now());
    await target.store.importEntries(await collect(source.store));
    await target.store.putClientSecret({ id: 'target-only', clientId: 'app', hash: 'sha256:t', label: 'only here', createdAt: START.toISOString() });
    await target.store.setCredential(user.id, 'password', '$argon2id$target-only');
    await target.store.putTeamMember({ clientId: 'app', developerId: 'dev_target', role: 'member', addedAt: START.toISOString() });
    await target.store.appendDeveloperEvent({ subject: 'app:app', at: '2027-02-01T00:00:00.000Z', actorId: 'operator', actorName: 'operator', action: 'app.approved', detail: {} });
    await target.store.importEntries(await collect(source.store));
    t.same((await target.store.listTeam('app')).map((m) => m.developerId), ['dev_1', 'dev_target', 'dev_2'], 'the target-only member survives');
    t.same((await target.store.listDeveloperEvents('app:app', 10)).map((e) => e.action),
      ['app.approved', 'secret.created', 'member.added', 'app.registered'], 'the target-only event survives; none repeated');
    t.same((await target.store.listClientSecrets('app')).map((s) => s.id).sort(), ['s1', 'target-only'], 'the target-only secret survives a second import');
    t.equal(await target.store.getCredential(user.id, 'password'), '$argon2id$target-only', 'the user\'s other credential survives');
    t.same(await target.store.findOrganisation(org.id), org, 'organisation unchanged');
  });
}
