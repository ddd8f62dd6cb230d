import type { Test } from 'tap';
import { type ClassLink, ENDED_CLASS_LINKS_KEPT_MS, type Store } from '../../adapters/store.js';
import { type Fresh, START } from './harness.js';
import { fillRoster, NORTH, sampleClass, SOUTH, TESS } from './roster-fixtures.js';

const HOUR = 3600_000;
const at = (ms: number) => new Date(START.getTime() + ms).toISOString();
const NOW = at(0);

export const classLink = (id: string, over: Partial<ClassLink> = {}): ClassLink => ({
  id, organisationId: NORTH, classId: 'c1', codeHash: `hmac-${id}`, createdAt: NOW, expiresAt: at(2 * HOUR),
  createdBy: { id: TESS, username: 'tess' }, ...over,
});

/** North's two classes (c1, c2) and South with a class of its own (s1). */
export async function classes(store: Store) {
  await fillRoster(store);
  await store.applyRoster({
    organisations: [], users: [], holds: [], memberships: { put: [], remove: [] }, academicSessions: { put: [], remove: [] },
    classes: { put: [sampleClass('s1', 'South 5', { organisationId: SOUTH })], remove: [] }, enrolments: { put: [], remove: [] },
    run: { id: 'run-2', at: NOW, by: 'cli:admin', format: 'oneroster-1.1', digest: 'sha-2', organisations: ['south'], counts: {} },
  });
}

/** Class links: found live by code hash, listed newest first per class, revoked at once, purged a day after they end. */
export function classLinksContract(t: Test, fresh: Fresh): void {
  t.test('class links: put, find and list round-trip every field; newest first, per class and school', async (t) => {
    const { store, reopen } = await fresh(t);
    await classes(store);
    t.equal(await store.findLiveClassLink('hmac-a', NOW), undefined, 'none yet');
    const a = classLink('a');
    await store.putClassLink(a);
    t.same(await store.findLiveClassLink('hmac-a', NOW), a, 'by code hash, every field');
    t.same(await store.findClassLink(NORTH, 'a'), a, 'by id');
    t.equal(await store.findClassLink(SOUTH, 'a'), undefined, 'not by id within another school');
    await store.putClassLink(classLink('b', { createdAt: at(HOUR), expiresAt: at(3 * HOUR), createdBy: { id: 'u_other', username: 'otto' } }));
    await store.putClassLink(classLink('c', { createdAt: at(30 * 60_000), classId: 'c2' }));
    await store.putClassLink(classLink('s', { organisationId: SOUTH, classId: 's1' }));
    t.same((await store.listClassLinks(NORTH, 'c1', NOW)).map((l) => l.id), ['b', 'a'], "the class's live links, newest first");
    t.same((await store.listClassLinks(NORTH, 'c2', NOW)).map((l) => l.id), ['c'], 'another class has its own');
    t.same((await store.listClassLinks(SOUTH, 's1', NOW)).map((l) => l.id), ['s'], 'another school has its own');
    t.same(await store.listClassLinks(SOUTH, 'c1', NOW), [], "not another school's class");
    t.same(await store.listClassLinks(NORTH, 'c_none', NOW), [], 'a class without any');
    if (reopen) t.same(await (await reopen()).findLiveClassLink('hmac-b', NOW), (await store.listClassLinks(NORTH, 'c1', NOW))[0], 'another instance reads the same');
  });

  t.test('class links: refused for a school or class that does not exist, or a class of another school', async (t) => {
    const { store } = await fresh(t);
    await classes(store);
    await t.rejects(store.putClassLink(classLink('x', { organisationId: 'o_ghost' })), { statusCode: 404 } as unknown as Error, 'no such school');
    await t.rejects(store.putClassLink(classLink('x', { classId: 'c_ghost' })), { statusCode: 404 } as unknown as Error, 'no such class');
    await t.rejects(store.putClassLink(classLink('x', { classId: 's1' })), { statusCode: 404 } as unknown as Error, "another school's class");
    t.equal(await store.findLiveClassLink('hmac-x', NOW), undefined, 'nothing kept');
  });

  t.test('class links: an expired link opens nothing and is not listed; it is still found by id', async (t) => {
    const { store } = await fresh(t);
    await classes(store);
    await store.putClassLink(classLink('a', { expiresAt: at(HOUR) }));
    await store.putClassLink(classLink('b', { expiresAt: at(2 * HOUR) }));
    t.ok(await store.findLiveClassLink('hmac-a', at(HOUR - 1)), 'live until its time');
    t.equal(await store.findLiveClassLink('hmac-a', at(HOUR)), undefined, 'not at its time');
    t.same((await store.listClassLinks(NORTH, 'c1', at(HOUR))).map((l) => l.id), ['b'], 'not listed');
    t.equal(await store.revokeClassLink(NORTH, 'a', at(HOUR)), false, 'an expired link cannot be revoked');
    t.equal((await store.findClassLink(NORTH, 'a'))?.revokedAt, undefined, 'and is left as it was');
    t.ok(await store.findClassLink(NORTH, 'a'), 'found by id: the service decides it is not live');
  });

  t.test('class links: revoking ends a link at once, on every instance; only once, only in its school', async (t) => {
    const { store, reopen } = await fresh(t);
    await classes(store);
    await store.putClassLink(classLink('a'));
    await store.putClassLink(classLink('b'));
    const other = reopen ? await reopen() : store;
    t.ok(await other.findLiveClassLink('hmac-a', NOW), 'live on another instance');
    t.equal(await store.revokeClassLink(SOUTH, 'a', at(60_000)), false, 'not from another school');
    t.equal(await store.revokeClassLink(NORTH, 'none', at(60_000)), false, 'no such link');
    t.equal(await store.revokeClassLink(NORTH, 'a', at(60_000)), true, 'revoked');
    t.equal(await store.revokeClassLink(NORTH, 'a', at(120_000)), false, 'only once');
    t.equal(await other.findLiveClassLink('hmac-a', at(60_000)), undefined, 'opens nothing, on the other instance too');
    t.same((await other.listClassLinks(NORTH, 'c1', at(60_000))).map((l) => l.id), ['b'], 'not listed');
    t.same(await store.findClassLink(NORTH, 'a'), { ...classLink('a'), revokedAt: at(60_000) }, 'by id: when it was revoked');
    t.ok(await store.findLiveClassLink('hmac-b', at(60_000)), 'the other link is untouched');
    const raced = await Promise.all([store.revokeClassLink(NORTH, 'b', NOW), other.revokeClassLink(NORTH, 'b', NOW), store.revokeClassLink(NORTH, 'b', NOW)]);
    t.equal(raced.filter(Boolean).length, 1, 'revoked at the same time: one revocation');
  });

  t.test('class links: purged a day after they ended (expired or revoked), by the sweep too', async (t) => {
    const { store, clock } = await fresh(t);
    await classes(store);
    await store.putClassLink(classLink('expired', { expiresAt: at(HOUR) }));
    await store.putClassLink(classLink('revoked', { expiresAt: at(20 * HOUR) }));
    await store.putClassLink(classLink('live', { expiresAt: at(24 * HOUR) }));
    await store.revokeClassLink(NORTH, 'revoked', at(2 * HOUR));
    t.equal(await store.purgeClassLinksBefore(at(HOUR)), 0, 'nothing ended before the first expiry');
    t.equal(await store.purgeClassLinksBefore(at(HOUR + 1)), 1, 'the expired one');
    t.equal(await store.findClassLink(NORTH, 'expired'), undefined, 'gone');
    t.ok(await store.findClassLink(NORTH, 'revoked'), 'the revoked one is kept for now');
    clock.advance(2 * HOUR + ENDED_CLASS_LINKS_KEPT_MS - 1);
    await store.sweep();
    t.ok(await store.findClassLink(NORTH, 'revoked'), 'a sweep within a day of its revocation keeps it');
    clock.advance(2);
    t.ok((await store.sweep()) >= 1, 'the sweep a day after removes it');
    t.equal(await store.findClassLink(NORTH, 'revoked'), undefined, 'gone');
    t.ok(await store.findClassLink(NORTH, 'live'), 'the live one stays');
    t.same((await store.listClassLinks(NORTH, 'c1', NOW)).map((l) => l.id), ['live'], 'and is listed alone (as at the start)');
    t.equal(await store.purgeClassLinksBefore(at(100 * HOUR)), 1, 'purging later takes the last');
    t.same(await store.listClassLinks(NORTH, 'c1', NOW), [], 'none left');
  });
}
