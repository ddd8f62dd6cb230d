import type { Test } from 'tap';
import type { Store, StoreEntry } from '../../adapters/store.js';
import { type Fresh, orgAndUser, SECOND, START } from './harness.js';

/** The models oidc-provider keeps per account, as the adapter writes them (payload.accountId). */
const MODELS = ['Session', 'Interaction', 'Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken'];

/** One record of every model for the account, each under one grant, plus a record of no one. */
async function recordsOf(store: Store, accountId: string, tag: string) {
  for (const m of MODELS) {
    await store.oidc.upsert(m, `${m}-${tag}`, { accountId, grantId: `grant-${tag}`, uid: `uid-${m}-${tag}` }, 600);
  }
}

async function liveRecords(store: Store, tag: string): Promise<string[]> {
  const found: string[] = [];
  for (const m of MODELS) if (await store.oidc.find(m, `${m}-${tag}`)) found.push(m);
  return found;
}

/** Wall time around an action, for sessionsValidAfter (wall time by design: adapters/store/directory.ts). */
async function wallTimed<T>(work: () => Promise<T>): Promise<{ result: T; before: number; after: number }> {
  const before = Date.now();
  const result = await work();
  return { result, before, after: Date.now() };
}

async function exported(store: Store): Promise<StoreEntry[]> {
  const out: StoreEntry[] = [];
  for await (const e of store.exportEntries()) out.push(e);
  return out;
}

/**
 * Ending a user's sessions (docs/configuration.md → Adding clients and users): a credential replaced, a badge voided, a suspension, a sign-out,
 * a deletion. Each moves the user's sessionsValidAfter and removes every protocol record of the account
 * at once, on every backend; nothing else is touched.
 */
export function accountSessionsContract(t: Test, fresh: Fresh): void {
  t.test('accounts: revokeByAccountId removes every model of the account, and only those', async (t) => {
    const { store } = await fresh(t);
    await recordsOf(store, 'u100000000000001', 'mine');
    await recordsOf(store, 'u100000000000002', 'theirs');
    await store.oidc.upsert('Session', 'anonymous', { uid: 'x' }, 600);
    t.equal(await store.oidc.revokeByAccountId('u100000000000001'), MODELS.length, 'one of each model removed');
    t.same(await liveRecords(store, 'mine'), [], 'nothing of the account is left');
    t.same(await liveRecords(store, 'theirs'), MODELS, 'another account keeps everything');
    t.ok(await store.oidc.find('Session', 'anonymous'), 'a session without an account is kept');
    t.equal(await store.oidc.findByUid('Session', 'uid-Session-mine'), undefined, 'not found by uid either');
    t.equal(await store.oidc.revokeByAccountId('u100000000000001'), 0, 'again: nothing to remove');
  });

  t.test('accounts: a record rewritten for another account leaves the first account\'s reach', async (t) => {
    const { store } = await fresh(t);
    await store.oidc.upsert('Session', 's', { accountId: 'u100000000000001' }, 600);
    await store.oidc.upsert('Session', 's', { accountId: 'u100000000000002' }, 600);
    t.equal(await store.oidc.revokeByAccountId('u100000000000001'), 0, 'the old account no longer owns it');
    t.same(await store.oidc.find('Session', 's'), { accountId: 'u100000000000002' }, 'kept');
    t.equal(await store.oidc.revokeByAccountId('u100000000000002'), 1, 'the new one does');
  });

  t.test('accounts: revocation by account reaches records written after a restart and by another instance', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) {
      t.pass('no durable location');
      return;
    }
    const second = await reopen();
    await recordsOf(second, 'u100000000000001', 'a');
    await second.close();
    const third = await reopen();
    t.equal(await store.oidc.revokeByAccountId('u100000000000001'), MODELS.length, 'written elsewhere, revoked here');
    t.same(await liveRecords(third, 'a'), [], 'gone for every instance');
  });

  t.test('accounts: replacing a credential ends the sessions; the first one, or the same hash again, does not', async (t) => {
    const { store } = await fresh(t);
    const { org, user } = await orgAndUser(store);
    const other = await store.upsertUser({ organisationId: org.id, username: 'pupil', givenName: 'P', familyName: 'Q', type: 'student' });
    await recordsOf(store, user.id, 'mine');
    await recordsOf(store, other.id, 'theirs');
    await store.setCredential(user.id, 'password', '$argon2id$first');
    t.equal((await store.findUser(user.id))?.sessionsValidAfter, undefined, 'a first credential ends nothing');
    t.same(await liveRecords(store, 'mine'), MODELS, 'records kept');
    await store.setCredential(user.id, 'password', '$argon2id$first');
    t.same(await liveRecords(store, 'mine'), MODELS, 'the same hash again ends nothing');

    const { before, after } = await wallTimed(() => store.setCredential(user.id, 'password', '$argon2id$second'));
    const validAfter = (await store.findUser(user.id))?.sessionsValidAfter;
    t.ok(validAfter !== undefined && validAfter >= before && validAfter <= after, `sessionsValidAfter is the wall time of the change (${validAfter})`);
    t.same(await liveRecords(store, 'mine'), [], 'every record of the account removed at once');
    t.same(await liveRecords(store, 'theirs'), MODELS, 'another user keeps theirs');
    t.equal((await store.findUser(other.id))?.sessionsValidAfter, undefined, 'and their sessions');
    t.equal(await store.getCredential(user.id, 'password'), '$argon2id$second', 'the new credential is stored');

    await recordsOf(store, user.id, 'again');
    await store.setCredential(user.id, 'emoji', '$argon2id$emoji');
    t.same(await liveRecords(store, 'again'), MODELS, 'a first credential of another kind ends nothing');
    await store.setCredential(user.id, 'emoji', '$argon2id$emoji-2');
    t.same(await liveRecords(store, 'again'), [], 'replacing it does');
  });

  t.test('accounts: voiding a badge ends its holder\'s sessions; a first badge does not', async (t) => {
    const { store } = await fresh(t);
    const { org, user } = await orgAndUser(store);
    const pupil = await store.upsertUser({ organisationId: org.id, username: 'pupil', givenName: 'P', familyName: 'Q', type: 'student' });
    const bystander = await store.upsertUser({ organisationId: org.id, username: 'bystander', givenName: 'B', familyName: 'S', type: 'student' });
    await recordsOf(store, user.id, 'u');
    await store.issueBadge(user.id, org.id, 'hash-1');
    t.same(await liveRecords(store, 'u'), MODELS, 'a first badge ends nothing');
    await store.issueBadge(user.id, org.id, 'hash-2');
    t.same(await liveRecords(store, 'u'), [], 'a new badge voids the old one and ends the sessions');
    t.type((await store.findUser(user.id))?.sessionsValidAfter, 'number', 'sessionsValidAfter moved');

    await recordsOf(store, user.id, 'u2');
    await recordsOf(store, pupil.id, 'p');
    await recordsOf(store, bystander.id, 'b');
    await store.issueBadge(pupil.id, org.id, 'hash-3');
    t.equal(await store.revokeBadges({ userId: pupil.id }), 1, 'one badge revoked');
    t.same(await liveRecords(store, 'p'), [], 'its holder is signed out');
    t.same(await liveRecords(store, 'u2'), MODELS, 'others are not');
    t.equal(await store.revokeBadges({ userId: pupil.id }), 0, 'nothing left to revoke');

    await recordsOf(store, pupil.id, 'p2');
    t.equal(await store.revokeBadges({ organisationId: org.id }), 1, 'the organisation\'s badges (the user\'s hash-2)');
    t.same(await liveRecords(store, 'u2'), [], 'the holder is signed out');
    t.same(await liveRecords(store, 'p2'), MODELS, 'a user without a badge is not');
    t.same(await liveRecords(store, 'b'), MODELS, 'nor a bystander');
    t.equal((await store.findUser(bystander.id))?.sessionsValidAfter, undefined, 'whose sessions stay valid');
  });

  t.test('accounts: endSessions moves sessionsValidAfter forward only, and says whether the user exists', async (t) => {
    const { store } = await fresh(t);
    const { user } = await orgAndUser(store);
    await recordsOf(store, user.id, 'a');
    const first = await wallTimed(() => store.endSessions(user.id));
    t.equal(first.result, true, 'the user exists');
    t.same(await liveRecords(store, 'a'), [], 'records removed');
    const at = (await store.findUser(user.id))!.sessionsValidAfter!;
    t.ok(at >= first.before && at <= first.after, 'now, on the wall clock');
    await new Promise((r) => setTimeout(r, 5));
    await store.endSessions(user.id);
    t.ok((await store.findUser(user.id))!.sessionsValidAfter! > at, 'a later sign-out moves it again');
    t.equal(await store.endSessions('u999999999999999'), false, 'no such user');
  });

  t.test('accounts: suspension ends the sessions, survives imports, and is lifted without reviving them', async (t) => {
    const { store } = await fresh(t);
    const { org, user } = await orgAndUser(store);
    await recordsOf(store, user.id, 'a');
    t.equal(await store.setSuspended(user.id, START.toISOString()), true);
    const suspended = await store.findUser(user.id);
    t.equal(suspended?.suspendedAt, START.toISOString(), 'suspendedAt stored');
    t.type(suspended?.sessionsValidAfter, 'number', 'sessions ended');
    t.same(await liveRecords(store, 'a'), [], 'records removed');
    const renamed = await store.upsertUser({ organisationId: org.id, username: 'teacher', givenName: 'Renamed', familyName: 'T', type: 'employee' });
    t.equal(renamed.suspendedAt, START.toISOString(), 'an import (upsert) keeps the suspension');
    t.equal(renamed.sessionsValidAfter, suspended?.sessionsValidAfter, 'and sessionsValidAfter');
    t.equal((await store.findUserByUsername(org.id, 'teacher'))?.givenName, 'Renamed', 'while updating the rest');

    await recordsOf(store, user.id, 'b');
    t.equal(await store.setSuspended(user.id, undefined), true, 'lifted');
    const lifted = await store.findUser(user.id);
    t.equal(lifted?.suspendedAt, undefined, 'no longer suspended');
    t.equal(lifted?.sessionsValidAfter, suspended?.sessionsValidAfter, 'sessions ended by the suspension stay ended');
    t.same(await liveRecords(store, 'b'), MODELS, 'lifting ends nothing');
    t.equal(await store.setSuspended('u999999999999999', START.toISOString()), false, 'no such user');
  });

  t.test('accounts: deleteUser erases everything of the user but a retired id, which is never given out again', async (t) => {
    const { store, clock } = await fresh(t);
    const { org, user } = await orgAndUser(store);
    const other = await store.upsertUser({ organisationId: org.id, username: 'pupil', givenName: 'P', familyName: 'Q', type: 'student' });
    await store.setCredential(user.id, 'password', '$argon2id$p');
    await store.setCredential(user.id, 'emoji', '$argon2id$e');
    await store.issueBadge(user.id, org.id, 'hash-1');
    await store.setCredential(other.id, 'password', '$argon2id$other');
    await store.issueBadge(other.id, org.id, 'hash-2');
    await recordsOf(store, user.id, 'gone');
    await recordsOf(store, other.id, 'kept');

    t.equal(await store.deleteUser(user.id, clock.now().toISOString()), true, 'deleted');
    t.equal(await store.findUser(user.id), undefined, 'no user by id');
    t.equal(await store.findUserByUsername(org.id, 'teacher'), undefined, 'nor by username');
    t.same((await store.listUsers(org.id)).map((u) => u.username), ['pupil'], 'not listed');
    t.equal(await store.getCredential(user.id, 'password'), undefined, 'password gone');
    t.equal(await store.getCredential(user.id, 'emoji'), undefined, 'emoji password gone');
    t.equal(await store.findBadge('hash-1'), undefined, 'badge gone');
    t.same(await liveRecords(store, 'gone'), [], 'sessions, grants, codes and tokens gone');
    t.ok(await store.isRetiredUserId(user.id), 'the id is retired');
    t.notOk(await store.isRetiredUserId(other.id), 'another user\'s is not');

    t.same(await liveRecords(store, 'kept'), MODELS, 'another user keeps their records');
    t.equal(await store.getCredential(other.id, 'password'), '$argon2id$other', 'their credential');
    t.same(await store.findBadge('hash-2'), { userId: other.id, organisationId: org.id }, 'and their badge');

    const entries = await exported(store);
    const traces = entries.filter((e) => JSON.stringify(e.value).includes(user.id));
    t.same(traces, [{ kind: 'retired_user', value: { id: user.id, retiredAt: clock.now().toISOString() } }], 'the store keeps nothing of the user but the retired id');

    const again = await store.upsertUser({ organisationId: org.id, username: 'teacher', givenName: 'New', familyName: 'Teacher', type: 'employee' });
    t.not(again.id, user.id, 'the same username later is a new user, with a new id');
    t.equal(again.suspendedAt, undefined, 'a fresh user');
    await t.rejects(
      store.upsertUser({ id: user.id, organisationId: org.id, username: 'someone', givenName: 'S', familyName: 'O', type: 'student' }),
      { code: 'conflict' },
      'a retired id is refused when given',
    );
    t.equal(await store.deleteUser(user.id, clock.now().toISOString()), false, 'deleting again: no such user');
  });

  t.test('accounts: credentialKinds and badgeHolders list what each user of one organisation has', async (t) => {
    const { store } = await fresh(t);
    const { org, user } = await orgAndUser(store);
    const pupil = await store.upsertUser({ organisationId: org.id, username: 'pupil', givenName: 'P', familyName: 'Q', type: 'student' });
    await store.upsertUser({ organisationId: org.id, username: 'none', givenName: 'N', familyName: 'O', type: 'student' });
    const elsewhere = await store.upsertOrganisation({ slug: 'south', name: 'South' });
    const stranger = await store.upsertUser({ organisationId: elsewhere.id, username: 's', givenName: 'S', familyName: 'T', type: 'student' });
    await store.setCredential(user.id, 'password', 'h1');
    await store.setCredential(user.id, 'emoji', 'h2');
    await store.setCredential(pupil.id, 'emoji', 'h3');
    await store.setCredential(stranger.id, 'password', 'h4');
    await store.issueBadge(pupil.id, org.id, 'b1');
    await store.issueBadge(stranger.id, elsewhere.id, 'b2');
    const kinds = await store.credentialKinds(org.id);
    t.same(Object.fromEntries([...kinds].map(([id, k]) => [id, [...k].sort()])), { [user.id]: ['emoji', 'password'], [pupil.id]: ['emoji'] }, 'by user, this organisation only');
    t.same([...(await store.badgeHolders(org.id))], [pupil.id], 'badge holders of this organisation only');
    await store.revokeBadges({ userId: pupil.id });
    t.same([...(await store.badgeHolders(org.id))], [], 'a revoked badge is not held');
  });

  t.test('accounts: store copy carries suspensions, sessionsValidAfter and retired ids', async (t) => {
    const source = await fresh(t);
    const target = await fresh(t);
    const { org, user } = await orgAndUser(source.store);
    const gone = await source.store.upsertUser({ organisationId: org.id, username: 'gone', givenName: 'G', familyName: 'O', type: 'student' });
    await source.store.setSuspended(user.id, START.toISOString());
    await source.store.deleteUser(gone.id, START.toISOString());
    await recordsOf(source.store, user.id, 'copied');
    source.clock.advance(SECOND);
    target.clock.set(source.clock.now());
    await target.store.importEntries(await exported(source.store));
    t.same(await target.store.findUser(user.id), await source.store.findUser(user.id), 'suspension and sessionsValidAfter travel');
    t.ok(await target.store.isRetiredUserId(gone.id), 'the retired id travels');
    t.same(await target.store.countEntries(), await source.store.countEntries(), 'counts agree');
    t.equal(await target.store.oidc.revokeByAccountId(user.id), MODELS.length, 'copied records are indexed by account in the target');
  });
}
