import type { Test } from 'tap';
import { ENTRY_KINDS, type EntryKind, type Store, type StoreEntry } from '../../adapters/store.js';
import { type Fresh, SECOND } from './harness.js';
import { appRequest, liveClient } from './app-requests.js';
import { classes, classLink } from './class-links.js';
import { helpCode, pupils } from './help-codes.js';
import { NORTH } from './roster-fixtures.js';
import { factor, grant, token } from './staff.js';

async function collect(store: Store): Promise<StoreEntry[]> {
  const out: StoreEntry[] = [];
  for await (const e of store.exportEntries()) out.push(e);
  return out;
}

/** The school console's kinds, each of which this test fills. */
const KINDS: EntryKind[] = ['app_request', 'staff_grant', 'staff_factor', 'staff_token', 'help_code', 'class_link'];

/**
 * The school console's records: apps' requests to schools, staff grants, a second factor part spent, API tokens, a live help code and one
 * about to expire (which must not travel once it has), and class links: a live one, one about to expire and a revoked one.
 */
async function fill(store: Store, now: number) {
  const people = await pupils(store);
  const { org, other, teacher, pip, pam } = people;
  await store.putClient(liveClient('maths'));
  await store.putAppRequest(appRequest(org.id, 'maths', { note: 'Year 5' }));
  await store.putAppRequest(appRequest(other.id, 'maths', { status: 'declined', answer: 'no', answeredAt: new Date(now).toISOString() }));
  await store.putStaffGrant(grant(org.id, teacher.id, { source: 'console', grantedBy: pip.id }));
  await store.putStaffGrant(grant(org.id, teacher.id, { role: 'teacher', source: 'roster' }));
  await store.putStaffGrant(grant(other.id, teacher.id, { source: 'config' }));
  await store.putStaffSecondFactor(factor(teacher.id, { lastStep: 42 }));
  await store.spendStaffRecoveryCode(teacher.id, 'sha256:r2');
  await store.putStaffSecondFactor(factor(pip.id, { recoveryCodeHashes: [] }));
  await store.putStaffApiToken(token('st_1', teacher.id, { lastUsedAt: '2027-01-15T13:00:00.000Z' }));
  await store.putStaffApiToken(token('st_2', teacher.id));
  await store.putHelpCode(helpCode(pip.id, org.id, { createdAt: new Date(now).toISOString(), expiresAt: new Date(now + 3600 * SECOND).toISOString(), failures: 1 }));
  await store.putHelpCode(helpCode(pam.id, org.id, { createdAt: new Date(now).toISOString(), expiresAt: new Date(now + 5 * SECOND).toISOString() }));
  await classes(store);
  const createdAt = new Date(now).toISOString();
  await store.putClassLink(classLink('live', { createdAt, expiresAt: new Date(now + 3600 * SECOND).toISOString() }));
  await store.putClassLink(classLink('ending', { createdAt, expiresAt: new Date(now + 5 * SECOND).toISOString() }));
  await store.putClassLink(classLink('revoked', { createdAt, expiresAt: new Date(now + 3600 * SECOND).toISOString() }));
  await store.revokeClassLink(NORTH, 'revoked', createdAt);
  return people;
}

/** Transfer of the school console's records: each kind in its place, live ones only, the same in the target. */
export function consoleTransferContract(t: Test, fresh: Fresh): void {
  t.test("transfer: the school console's records travel, in dependency order, live help codes only", async (t) => {
    const source = await fresh(t);
    const target = await fresh(t);
    const { org, other, teacher, pip, pam } = await fill(source.store, source.clock.now().getTime());
    source.clock.advance(10 * SECOND);
    target.clock.set(source.clock.now());
    const entries = await collect(source.store);
    const order = entries.map((e) => ENTRY_KINDS.indexOf(e.kind));
    t.same(order, [...order].sort((a, b) => a - b), 'kinds in ENTRY_KINDS order');
    const counts = await source.store.countEntries();
    for (const kind of KINDS) {
      t.equal(entries.filter((e) => e.kind === kind).length, counts[kind], `${kind}: export and count agree`);
      t.ok(counts[kind] > 0, `${kind}: some to copy`);
    }
    t.equal(counts.app_request, 2, 'app requests counted');
    t.same([counts.staff_grant, counts.staff_factor, counts.staff_token], [3, 2, 2], 'grants, factors and tokens counted');
    t.equal(counts.help_code, 1, 'the expired help code is left out');
    t.equal(counts.class_link, 1, 'the expired and the revoked class links are left out');

    await target.store.importEntries(entries);
    t.same(await target.store.countEntries(), counts, 'counts agree');
    const now = target.clock.now().toISOString();
    for (const o of [org.id, other.id]) t.same(await target.store.listAppRequests(o), await source.store.listAppRequests(o), "a school's app requests");
    t.same(await target.store.listClientAppRequests('maths'), await source.store.listClientAppRequests('maths'), 'app requests, both directions');
    for (const o of [org.id, other.id]) t.same(await target.store.listStaffGrants(o), await source.store.listStaffGrants(o), 'grants of a school');
    t.same(await target.store.userStaffGrants(teacher.id), await source.store.userStaffGrants(teacher.id), 'grants of a person: both directions');
    for (const u of [teacher.id, pip.id]) t.same(await target.store.getStaffSecondFactor(u), await source.store.getStaffSecondFactor(u), 'second factor');
    t.equal(await target.store.advanceStaffTotpStep(teacher.id, 42), false, 'the last step travelled: no replay in the target');
    t.equal(await target.store.spendStaffRecoveryCode(teacher.id, 'sha256:r2'), false, 'a spent code stays spent');
    t.same(await target.store.listStaffApiTokens(teacher.id), await source.store.listStaffApiTokens(teacher.id), 'API tokens');
    t.equal(await target.store.deleteStaffApiToken(teacher.id, 'st_2'), true, 'token index rebuilt: the owner deletes it');
    t.same(await target.store.listHelpCodes(org.id, now), await source.store.listHelpCodes(org.id, now), 'help codes, failures kept');
    t.equal(await target.store.findHelpCode(pam.id, now), undefined, 'the expired one did not travel');
    t.equal(await target.store.tryHelpCode(pip.id, `hmac-${pip.id}`, now, 5), 'used', 'the code works once in the target');
    t.equal(await target.store.tryHelpCode(pip.id, `hmac-${pip.id}`, now, 5), 'none', 'and once only');
    t.same(await target.store.listClassLinks(NORTH, 'c1', now), await source.store.listClassLinks(NORTH, 'c1', now), 'class links');
    t.same(await target.store.findLiveClassLink('hmac-live', now), await source.store.findClassLink(NORTH, 'live'), 'the live link opens in the target');
    t.equal(await target.store.findClassLink(NORTH, 'revoked'), undefined, 'the revoked one did not travel');
    t.equal(await target.store.revokeClassLink(NORTH, 'live', now), true, 'and is revoked there');

    const again = await fresh(t);
    again.clock.set(source.clock.now());
    await again.store.importEntries(entries);
    await again.store.importEntries(entries);
    t.same(await again.store.countEntries(), counts, 'importing twice duplicates nothing');
    const late = await fresh(t);
    late.clock.set(new Date(source.clock.now().getTime() + 7200 * SECOND));
    await late.store.importEntries(entries);
    t.equal((await late.store.countEntries()).help_code, 0, 'a help code expired on the way is skipped');
    t.equal((await late.store.countEntries()).class_link, 0, 'a class link expired on the way is skipped');
  });
}
