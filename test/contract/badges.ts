import type { Test } from 'tap';
import { type Fresh, orgAndUser } from './harness.js';

/** Badges: one active badge per user. */
export function badgesContract(t: Test, fresh: Fresh): void {
  t.test('badges: one active badge per user, found by hash, revocable by user or organisation', async (t) => {
    const { store } = await fresh(t);
    const { org, user } = await orgAndUser(store);
    const pupil = await store.upsertUser({ organisationId: org.id, username: 'pupil', givenName: 'P', familyName: 'Q', type: 'student' });
    await store.issueBadge(user.id, org.id, 'hash-1');
    t.same(await store.findBadge('hash-1'), { userId: user.id, organisationId: org.id });
    await store.issueBadge(user.id, org.id, 'hash-2');
    t.equal(await store.findBadge('hash-1'), undefined, 'a new badge voids the old one');
    t.same(await store.findBadge('hash-2'), { userId: user.id, organisationId: org.id });
    await store.issueBadge(pupil.id, org.id, 'hash-3');
    t.equal(await store.revokeBadges({ userId: user.id }), 1, 'one user');
    t.equal(await store.findBadge('hash-2'), undefined);
    t.ok(await store.findBadge('hash-3'), 'others keep theirs');
    t.equal(await store.revokeBadges({ organisationId: org.id }), 1, 'the whole organisation');
    t.equal(await store.findBadge('hash-3'), undefined);
  });
}
