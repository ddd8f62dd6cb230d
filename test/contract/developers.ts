import type { Test } from 'tap';
import type { DeveloperAccount, DeveloperApiToken, DeveloperEvent, Store, TeamMember } from '../../adapters/store.js';
import { type Fresh, START } from './harness.js';

const at = (minutes: number): string => new Date(START.getTime() + minutes * 60_000).toISOString();

const account = (id: string, email: string, over: Partial<DeveloperAccount> = {}): DeveloperAccount => ({
  id, email, displayName: `Developer ${id}`, passwordHash: `$argon2id$${id}`, createdAt: at(0), updatedAt: at(0), ...over,
});

const member = (clientId: string, developerId: string, minute: number, role: TeamMember['role'] = 'member', invitedBy?: string): TeamMember =>
  ({ clientId, developerId, role, addedAt: at(minute), ...(invitedBy ? { invitedBy } : {}) });

const token = (id: string, developerId: string, minute: number, over: Partial<DeveloperApiToken> = {}): DeveloperApiToken => ({
  id, developerId, hash: `sha256:${id}`, label: `label ${id}`, hint: `…${id.slice(-4)}`, createdAt: at(minute),
  expiresAt: at(minute + 60 * 24 * 90), ...over,
});

const event = (subject: string, minute: number, action: string, over: Partial<DeveloperEvent> = {}): DeveloperEvent => ({
  subject, at: at(minute), actorId: 'dev_1', actorName: 'Ada', action, detail: {}, ...over,
});

const ids = (members: TeamMember[], key: 'clientId' | 'developerId') => members.map((m) => m[key]);

/** The developer area: accounts (one per email), app teams, personal API tokens, and the history of changes. */
export function developersContract(t: Test, fresh: Fresh): void {
  t.test('developers: create, find by id and by email (any case), list by email; optional fields undefined', async (t) => {
    const { store } = await fresh(t);
    const full = account('dev_b', 'bea@example.org', {
      totpSecret: 'v1.iv.tag.secret', recoveryCodeHashes: ['sha256:r1', 'sha256:r2'], sessionsValidAfter: at(5), updatedAt: at(6),
      emailVerifiedAt: at(0),
    });
    const bare = account('dev_a', 'zed@example.org');
    t.equal(await store.createDeveloper(full), true, 'created');
    t.equal(await store.createDeveloper(bare), true, 'another email: created');
    t.same(await store.findDeveloper('dev_b'), full, 'every field');
    const found = await store.findDeveloper('dev_a');
    t.same(found, bare, 'bare account');
    t.equal(found?.totpSecret, undefined, 'no TOTP: undefined');
    t.equal(found?.recoveryCodeHashes, undefined, 'no recovery codes: undefined');
    t.equal(found?.sessionsValidAfter, undefined, 'no sessionsValidAfter: undefined');
    t.same(await store.findDeveloperByEmail('BEA@Example.ORG'), full, 'found by email, whatever its case');
    t.same((await store.listDevelopers()).map((a) => a.id), ['dev_b', 'dev_a'], 'listed by email');
    t.equal(await store.findDeveloper('dev_none'), undefined, 'unknown id');
    t.equal(await store.findDeveloperByEmail('none@example.org'), undefined, 'unknown email');
  });

  t.test('developers: an email is kept lower-cased and belongs to one account only', async (t) => {
    const { store } = await fresh(t);
    t.equal(await store.createDeveloper(account('dev_1', 'Ada@Example.org')), true, 'created');
    t.equal((await store.findDeveloper('dev_1'))?.email, 'ada@example.org', 'kept lower-cased');
    t.equal(await store.createDeveloper(account('dev_2', 'ada@example.org')), false, 'same email: refused');
    t.equal(await store.createDeveloper(account('dev_3', 'ADA@EXAMPLE.ORG')), false, 'same email in capitals: refused');
    t.equal(await store.findDeveloper('dev_2'), undefined, 'the refused account was not written');
    t.equal(await store.findDeveloper('dev_3'), undefined, 'nor the other');
    t.equal((await store.findDeveloperByEmail('ada@example.org'))?.id, 'dev_1', 'the email still leads to the first');
    t.equal((await store.listDevelopers()).length, 1, 'one account');
  });

  t.test('developers: of many creating one email at once, on two instances, exactly one succeeds', async (t) => {
    const { store, reopen } = await fresh(t);
    const other = reopen ? await reopen() : store;
    const attempts = Array.from({ length: 8 }, (_, i) =>
      (i % 2 ? other : store).createDeveloper(account(`dev_${i}`, i % 3 ? 'race@example.org' : 'RACE@example.org')));
    const results = await Promise.all(attempts);
    t.equal(results.filter(Boolean).length, 1, 'exactly one true');
    const winner = results.indexOf(true);
    t.equal((await store.findDeveloperByEmail('race@example.org'))?.id, `dev_${winner}`, 'the email leads to the winner');
    t.equal((await other.listDevelopers()).length, 1, 'one account for every instance');
  });

  t.test('developers: updateDeveloper replaces an existing account, never its email, and creates nothing', async (t) => {
    const { store } = await fresh(t);
    await store.createDeveloper(account('dev_1', 'ada@example.org', { totpSecret: 'v1.totp', recoveryCodeHashes: ['sha256:a'] }));
    const changed = account('dev_1', 'ada@example.org', {
      displayName: 'Ada L.', passwordHash: '$argon2id$new', sessionsValidAfter: at(10), recoveryCodeHashes: [], updatedAt: at(10),
      emailVerifiedAt: at(9),
    });
    await store.updateDeveloper(changed);
    t.same(await store.findDeveloper('dev_1'), changed, 'replaced whole (TOTP turned off, no recovery codes left)');
    await store.updateDeveloper({ ...changed, email: 'other@example.org' });
    t.equal((await store.findDeveloper('dev_1'))?.email, 'ada@example.org', 'the email is not changed by an update');
    t.equal(await store.findDeveloperByEmail('other@example.org'), undefined, 'nor indexed under the other address');
    t.equal(await store.createDeveloper(account('dev_2', 'other@example.org')), true, 'the other address is still free');
    await t.rejects(store.updateDeveloper(account('dev_ghost', 'ghost@example.org')), 'no account: refused');
    t.equal(await store.findDeveloper('dev_ghost'), undefined, 'and not created');
    t.equal(await store.findDeveloperByEmail('ghost@example.org'), undefined, 'nor its email');
  });

  t.test('developers: teams both ways, oldest first; a put replaces; removal and deleteTeam', async (t) => {
    const { store } = await fresh(t);
    await store.putTeamMember(member('app-b', 'dev_2', 3));
    await store.putTeamMember(member('app-a', 'dev_1', 1, 'owner'));
    await store.putTeamMember(member('app-a', 'dev_3', 2, 'invited', 'dev_1'));
    await store.putTeamMember(member('app-a', 'dev_2', 2, 'member', 'dev_1'));
    await store.putTeamMember(member('app-b', 'dev_1', 0, 'owner'));
    t.same(await store.listTeam('app-a'), [member('app-a', 'dev_1', 1, 'owner'), member('app-a', 'dev_2', 2, 'member', 'dev_1'), member('app-a', 'dev_3', 2, 'invited', 'dev_1')],
      'the team, oldest first (same instant: by developer id), every field (an invitation and who made it too)');
    t.same(await store.listMemberships('dev_3'), [member('app-a', 'dev_3', 2, 'invited', 'dev_1')], 'the invited developer’s side, as stored');
    t.same(ids(await store.listMemberships('dev_1'), 'clientId'), ['app-b', 'app-a'], 'memberships oldest first');
    t.same(ids(await store.listMemberships('dev_2'), 'clientId'), ['app-a', 'app-b'], 'same instant sorts by client id');
    t.same(await store.listTeam('app-none'), [], 'no team');
    t.same(await store.listMemberships('dev_none'), [], 'no memberships');

    await store.putTeamMember(member('app-a', 'dev_2', 2, 'owner'));
    t.equal((await store.listTeam('app-a')).find((m) => m.developerId === 'dev_2')?.role, 'owner', 'replaced: now an owner');
    t.equal((await store.listMemberships('dev_2')).find((m) => m.clientId === 'app-a')?.role, 'owner', 'seen from the developer too');
    t.equal((await store.listTeam('app-a')).length, 3, 'no duplicate');
    await store.putTeamMember(member('app-a', 'dev_3', 4, 'member', 'dev_1'));
    t.same((await store.listMemberships('dev_3')).find((m) => m.clientId === 'app-a'), member('app-a', 'dev_3', 4, 'member', 'dev_1'), 'an invitation accepted: a member now');

    t.equal(await store.removeTeamMember('app-a', 'dev_3'), true, 'removed');
    t.equal(await store.removeTeamMember('app-a', 'dev_3'), false, 'already gone');
    t.same(ids(await store.listTeam('app-a'), 'developerId'), ['dev_1', 'dev_2'], 'the rest of the team stays');
    t.same(await store.listMemberships('dev_3'), [], 'the removed developer sees the app no more');

    await store.deleteTeam('app-a');
    t.same(await store.listTeam('app-a'), [], 'the whole team gone');
    t.same(ids(await store.listMemberships('dev_1'), 'clientId'), ['app-b'], 'the members keep their other apps');
    t.same(ids(await store.listMemberships('dev_2'), 'clientId'), ['app-b'], 'every member');
    t.same(ids(await store.listTeam('app-b'), 'developerId'), ['dev_1', 'dev_2'], 'the other team untouched');
    await t.resolves(store.deleteTeam('app-a'), 'deleting again is harmless');
  });

  t.test('developers: a team change on one instance is seen by another at once', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) return t.pass('no durable location: a single instance only');
    const other = await reopen();
    await store.putTeamMember(member('app', 'dev_1', 0, 'owner'));
    await store.putTeamMember(member('app', 'dev_2', 1));
    t.same(ids(await other.listMemberships('dev_2'), 'clientId'), ['app'], 'added: seen elsewhere');
    await other.removeTeamMember('app', 'dev_2');
    t.same(await store.listMemberships('dev_2'), [], 'removed elsewhere: access gone here at once');
  });

  t.test('developers: API tokens: find, list oldest first per developer, touch, delete only one\'s own', async (t) => {
    const { store } = await fresh(t);
    const t2 = token('tok_2', 'dev_1', 5, { lastUsedAt: at(6) });
    const t1 = token('tok_1', 'dev_1', 1);
    const theirs = token('tok_3', 'dev_2', 0);
    await store.putApiToken(t2);
    await store.putApiToken(t1);
    await store.putApiToken(theirs);
    t.same(await store.findApiToken('tok_2'), t2, 'every field');
    t.equal((await store.findApiToken('tok_1'))?.lastUsedAt, undefined, 'never used: undefined');
    t.equal(await store.findApiToken('tok_none'), undefined, 'unknown token');
    t.same(await store.listApiTokens('dev_1'), [t1, t2], 'oldest first, only the developer\'s');
    t.same(await store.listApiTokens('dev_2'), [theirs], 'the other developer\'s');
    t.same(await store.listApiTokens('dev_none'), [], 'none');

    const expired = token('tok_old', 'dev_1', 2, { expiresAt: at(3) });
    await store.putApiToken(expired);
    t.same((await store.listApiTokens('dev_1')).map((x) => x.id), ['tok_1', 'tok_old', 'tok_2'], 'an expired token is listed until deleted');

    await store.touchApiToken('tok_1', at(30));
    t.equal((await store.findApiToken('tok_1'))?.lastUsedAt, at(30), 'last use recorded');
    t.same(await store.findApiToken('tok_1'), { ...t1, lastUsedAt: at(30) }, 'nothing else changed');
    await t.resolves(store.touchApiToken('tok_none', at(30)), 'touching an unknown token is harmless');
    t.equal(await store.findApiToken('tok_none'), undefined, 'and creates nothing');

    t.equal(await store.deleteApiToken('dev_1', 'tok_3'), false, 'another developer\'s token: not deleted');
    t.ok(await store.findApiToken('tok_3'), 'still there');
    t.same(await store.listApiTokens('dev_2'), [theirs], 'still listed for its owner');
    t.equal(await store.deleteApiToken('dev_1', 'tok_1'), true, 'deleted');
    t.equal(await store.deleteApiToken('dev_1', 'tok_1'), false, 'already gone');
    t.equal(await store.findApiToken('tok_1'), undefined, 'not found');
    t.same((await store.listApiTokens('dev_1')).map((x) => x.id), ['tok_old', 'tok_2'], 'the others stay');
  });

  t.test('developers: a token deleted on one instance no longer authenticates on another', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) return t.pass('no durable location: a single instance only');
    const other = await reopen();
    await store.putApiToken(token('tok_1', 'dev_1', 0));
    t.ok(await other.findApiToken('tok_1'), 'seen elsewhere');
    await other.deleteApiToken('dev_1', 'tok_1');
    t.equal(await store.findApiToken('tok_1'), undefined, 'gone here at once');
  });

  t.test('developers: events newest first per subject, at most `limit`, every field', async (t) => {
    const { store } = await fresh(t);
    const registered = event('app:a', 0, 'app.registered', { detail: { name: 'App A' } });
    const callback = event('app:a', 1, 'callback.added', { detail: { url: 'https://a.example/cb' } });
    const secret = event('app:a', 2, 'secret.created', { actorId: 'operator', actorName: 'operator', detail: { label: 'main', hint: '…x9Q' } });
    const scopes = event('app:a', 2, 'scopes.changed', { detail: { scopes: ['openid', 'api'], before: [] } });
    for (const e of [registered, callback, secret, scopes]) await store.appendDeveloperEvent(e);
    await store.appendDeveloperEvent(event('app:b', 5, 'app.registered'));
    await store.appendDeveloperEvent(event('developer:dev_1', 3, 'password.changed'));
    t.same(await store.listDeveloperEvents('app:a', 10), [scopes, secret, callback, registered],
      'newest first (same instant: the later appended first), every field');
    t.same(await store.listDeveloperEvents('app:a', 2), [scopes, secret], 'at most the limit: the newest');
    t.same(await store.listDeveloperEvents('app:a', 0), [], 'a limit of 0: none');
    t.equal((await store.listDeveloperEvents('app:a', Number.POSITIVE_INFINITY)).length, 4, 'no limit: all of them');
    t.same((await store.listDeveloperEvents('developer:dev_1', 10)).map((e) => e.action), ['password.changed'], 'subjects are separate');
    t.same(await store.listDeveloperEvents('app:none', 10), [], 'no history');
  });

  t.test('developers: events appended on two instances form one history', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) return t.pass('no durable location: a single instance only');
    const other = await reopen();
    await store.appendDeveloperEvent(event('app:a', 0, 'first'));
    await other.appendDeveloperEvent(event('app:a', 1, 'second'));
    await store.appendDeveloperEvent(event('app:a', 2, 'third'));
    t.same((await other.listDeveloperEvents('app:a', 10)).map((e) => e.action), ['third', 'second', 'first'], 'one history');
  });

  t.test('developers: everything survives a restart', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) return t.pass('no durable location');
    await fillDevelopers(store);
    const before = await developersSnapshot(store);
    await store.close();
    const after = await reopen();
    t.same(await developersSnapshot(after), before, 'accounts, teams, tokens and events');
    t.equal(await after.createDeveloper(account('dev_x', 'ADA@example.org')), false, 'the email index too');
  });
}

/** One of each developer-area record (for the restart and transfer tests). */
export async function fillDevelopers(store: Store): Promise<void> {
  await store.createDeveloper(account('dev_1', 'ada@example.org', { totpSecret: 'v1.totp', recoveryCodeHashes: ['sha256:r'] }));
  await store.createDeveloper(account('dev_2', 'bea@example.org'));
  await store.putTeamMember(member('app', 'dev_1', 0, 'owner'));
  await store.putTeamMember(member('app', 'dev_2', 1, 'invited', 'dev_1'));
  await store.putApiToken(token('tok_1', 'dev_1', 0, { lastUsedAt: at(2) }));
  await store.putApiToken(token('tok_2', 'dev_2', 1));
  // Two events of one instant: their order must survive too.
  await store.appendDeveloperEvent(event('app:app', 0, 'app.registered', { detail: { name: 'App' } }));
  await store.appendDeveloperEvent(event('app:app', 1, 'member.added', { detail: { email: 'bea@example.org' } }));
  await store.appendDeveloperEvent(event('app:app', 1, 'secret.created', { detail: { label: 'main', hint: '…abcd' } }));
  await store.appendDeveloperEvent(event('developer:dev_1', 0, 'totp.enabled'));
}

/** What `fillDevelopers` wrote, as the contract reads it. */
export async function developersSnapshot(store: Store) {
  return {
    developers: await store.listDevelopers(),
    team: await store.listTeam('app'),
    memberships: [await store.listMemberships('dev_1'), await store.listMemberships('dev_2')],
    tokens: [await store.listApiTokens('dev_1'), await store.listApiTokens('dev_2')],
    events: [await store.listDeveloperEvents('app:app', 100), await store.listDeveloperEvents('developer:dev_1', 100)],
  };
}
