import type { Test } from 'tap';
import type { StaffApiToken, StaffGrant, StaffSecondFactor } from '../../adapters/store.js';
import { type Fresh, START } from './harness.js';
import { pupils } from './help-codes.js';

const NOW = START.toISOString();

export const grant = (organisationId: string, userId: string, over: Partial<StaffGrant> = {}): StaffGrant => ({
  organisationId, userId, role: 'admin', source: 'operator', grantedAt: NOW, ...over,
});

export const factor = (userId: string, over: Partial<StaffSecondFactor> = {}): StaffSecondFactor => ({
  userId, totpSecret: 'v1.iv.tag.secret', recoveryCodeHashes: ['sha256:r1', 'sha256:r2', 'sha256:r3'], enabledAt: NOW, ...over,
});

export const token = (id: string, userId: string, over: Partial<StaffApiToken> = {}): StaffApiToken => ({
  id, userId, hash: `sha256:${id}`, label: 'sis sync', hint: '…wxyz', createdAt: NOW, expiresAt: '2028-01-15T12:00:00.000Z', ...over,
});

/** Pairs of ASCII ids in the order the store lists them: by the first, then the second. */
const inOrder = (pairs: string[][]) => [...pairs].sort(([a, b], [c, d]) => (a! < c! ? -1 : a! > c! ? 1 : b! < d! ? -1 : b! > d! ? 1 : 0));

/** Staff: grants per school and per person, the second factor (codes spent once, steps never replayed), API tokens. */
export function staffContract(t: Test, fresh: Fresh): void {
  t.test('staff: grants put, replace, delete and list per school and per person', async (t) => {
    const { store, reopen } = await fresh(t);
    const { org, other, teacher, pip, sam } = await pupils(store);
    const console = grant(org.id, teacher.id, { source: 'console', grantedBy: pip.id });
    await store.putStaffGrant(console);
    await store.putStaffGrant(grant(org.id, teacher.id, { role: 'teacher', source: 'roster' }));
    await store.putStaffGrant(grant(org.id, pip.id, { role: 'teacher' }));
    await store.putStaffGrant(grant(other.id, teacher.id, { source: 'config' }));
    await store.putStaffGrant(grant(other.id, sam.id, { role: 'teacher' }));
    t.same((await store.listStaffGrants(org.id)).map((g) => [g.userId, g.role]),
      inOrder([[teacher.id, 'admin'], [teacher.id, 'teacher'], [pip.id, 'teacher']]), "the school's, by user id then role");
    t.same((await store.listStaffGrants(org.id)).find((g) => g.role === 'admin'), console, 'every field');
    t.equal((await store.listStaffGrants(org.id)).find((g) => g.userId === pip.id)?.grantedBy, undefined, 'none: undefined');
    t.same((await store.userStaffGrants(teacher.id)).map((g) => [g.organisationId, g.role]),
      inOrder([[org.id, 'admin'], [org.id, 'teacher'], [other.id, 'admin']]), "a person's, by organisation id then role");
    const replaced = grant(org.id, teacher.id, { source: 'operator', grantedAt: '2027-02-01T00:00:00.000Z' });
    await store.putStaffGrant(replaced);
    t.same((await store.listStaffGrants(org.id)).filter((g) => g.role === 'admin'), [replaced], 'one grant per school, person and role, replaced whole');
    t.same((await store.userStaffGrants(teacher.id)).find((g) => g.organisationId === org.id && g.role === 'admin'), replaced, 'both directions');
    t.equal(await store.deleteStaffGrant(org.id, teacher.id, 'admin'), true);
    t.equal(await store.deleteStaffGrant(org.id, teacher.id, 'admin'), false, 'already gone');
    t.same((await store.listStaffGrants(org.id)).map((g) => [g.userId, g.role]).filter(([u]) => u === teacher.id), [[teacher.id, 'teacher']], 'the other role stays');
    t.same((await store.userStaffGrants(teacher.id)).map((g) => [g.organisationId, g.role]), inOrder([[org.id, 'teacher'], [other.id, 'admin']]), 'gone both ways');
    t.same(await store.listStaffGrants('o_none'), [], 'a school without staff');
    if (reopen) t.same(await (await reopen()).listStaffGrants(other.id), await store.listStaffGrants(other.id), 'another instance reads the same');
  });

  t.test('staff: a second factor round-trips; a recovery code is spent once; a TOTP step is never accepted twice', async (t) => {
    const { store } = await fresh(t);
    const { teacher } = await pupils(store);
    t.equal(await store.getStaffSecondFactor(teacher.id), undefined, 'none yet');
    t.equal(await store.spendStaffRecoveryCode(teacher.id, 'sha256:r1'), false, 'no factor: nothing to spend');
    t.equal(await store.advanceStaffTotpStep(teacher.id, 5), false, 'no factor: no step');
    await store.putStaffSecondFactor(factor(teacher.id));
    t.same(await store.getStaffSecondFactor(teacher.id), factor(teacher.id), 'every field, codes in order');
    t.equal(await store.spendStaffRecoveryCode(teacher.id, 'sha256:r2'), true, 'spent');
    t.equal(await store.spendStaffRecoveryCode(teacher.id, 'sha256:r2'), false, 'not twice');
    t.equal(await store.spendStaffRecoveryCode(teacher.id, 'sha256:nope'), false, 'not a code');
    t.same((await store.getStaffSecondFactor(teacher.id))?.recoveryCodeHashes, ['sha256:r1', 'sha256:r3'], 'the others stay, in order');
    t.equal(await store.advanceStaffTotpStep(teacher.id, 100), true, 'a first step');
    t.equal(await store.advanceStaffTotpStep(teacher.id, 100), false, 'the same step again: a replay');
    t.equal(await store.advanceStaffTotpStep(teacher.id, 99), false, 'an older step');
    t.equal(await store.advanceStaffTotpStep(teacher.id, 101), true, 'a later one');
    t.equal((await store.getStaffSecondFactor(teacher.id))?.lastStep, 101, 'recorded');
    for (const code of ['sha256:r1', 'sha256:r3']) await store.spendStaffRecoveryCode(teacher.id, code);
    t.same((await store.getStaffSecondFactor(teacher.id))?.recoveryCodeHashes, [], 'every code spent: an empty list');
    const renewed = factor(teacher.id, { totpSecret: 'v1.iv.tag.new', recoveryCodeHashes: ['sha256:n1'], lastStep: 107, enabledAt: '2027-02-01T00:00:00.000Z' });
    await store.putStaffSecondFactor(renewed);
    t.same(await store.getStaffSecondFactor(teacher.id), renewed, 'replaced whole, a later step too');
    t.equal(await store.advanceStaffTotpStep(teacher.id, 107), false, 'the step put is the last accepted');
    t.equal(await store.deleteStaffSecondFactor(teacher.id), true);
    t.equal(await store.deleteStaffSecondFactor(teacher.id), false, 'already gone');
    t.equal(await store.getStaffSecondFactor(teacher.id), undefined);
    t.equal(await store.spendStaffRecoveryCode(teacher.id, 'sha256:n1'), false, 'its codes went with it');
  });

  t.test('staff: a factor put never lowers the last TOTP step accepted (new recovery codes racing a sign-in)', async (t) => {
    const { store, reopen } = await fresh(t);
    const { teacher, pip } = await pupils(store);
    await store.putStaffSecondFactor(factor(teacher.id, { lastStep: 100 }));
    const read = (await store.getStaffSecondFactor(teacher.id))!;
    t.equal(await store.advanceStaffTotpStep(teacher.id, 101), true, 'a sign-in uses step 101 meanwhile');
    await store.putStaffSecondFactor({ ...read, recoveryCodeHashes: ['sha256:n1', 'sha256:n2'] });
    const after = await store.getStaffSecondFactor(teacher.id);
    t.same(after?.recoveryCodeHashes, ['sha256:n1', 'sha256:n2'], 'the new recovery codes');
    t.equal(after?.lastStep, 101, 'the greater step stays');
    t.equal(await store.advanceStaffTotpStep(teacher.id, 101), false, 'the code used meanwhile is not accepted again');
    await store.putStaffSecondFactor({ ...read, lastStep: undefined });
    t.equal((await store.getStaffSecondFactor(teacher.id))?.lastStep, 101, 'a factor put without a step keeps the stored one');
    await store.putStaffSecondFactor(factor(teacher.id, { lastStep: 150 }));
    t.equal((await store.getStaffSecondFactor(teacher.id))?.lastStep, 150, 'a later step put is taken');
    await store.putStaffSecondFactor(factor(pip.id));
    t.equal((await store.getStaffSecondFactor(pip.id))?.lastStep, undefined, 'a new factor without a step has none');
    await store.deleteStaffSecondFactor(teacher.id);
    await store.putStaffSecondFactor(factor(teacher.id, { lastStep: 3 }));
    t.equal((await store.getStaffSecondFactor(teacher.id))?.lastStep, 3, 'a factor deleted takes its step with it');
    if (reopen) t.equal((await (await reopen()).getStaffSecondFactor(teacher.id))?.lastStep, 3, 'another instance reads the same');
  });

  t.test('staff: one recovery code spent at once, one TOTP step used at once: exactly one succeeds', async (t) => {
    const { store, reopen } = await fresh(t);
    const { teacher } = await pupils(store);
    const others = reopen ? [store, await reopen(), await reopen()] : [store];
    await store.putStaffSecondFactor(factor(teacher.id));
    for (const code of ['sha256:r1', 'sha256:r2', 'sha256:r3']) {
      const spent = await Promise.all(Array.from({ length: 12 }, (_, i) => others[i % others.length]!.spendStaffRecoveryCode(teacher.id, code)));
      t.equal(spent.filter(Boolean).length, 1, `${code}: exactly one spend`);
    }
    t.same((await store.getStaffSecondFactor(teacher.id))?.recoveryCodeHashes, [], 'all three gone, none twice');
    for (const step of [200, 201]) {
      const used = await Promise.all(Array.from({ length: 12 }, (_, i) => others[i % others.length]!.advanceStaffTotpStep(teacher.id, step)));
      t.equal(used.filter(Boolean).length, 1, `step ${step}: accepted once`);
    }
  });

  t.test('staff: API tokens put, find, list oldest first, touch and delete (the owner only)', async (t) => {
    const { store } = await fresh(t);
    const { teacher, pip } = await pupils(store);
    const newer = token('st_2', teacher.id, { createdAt: '2027-01-16T00:00:00.000Z' });
    const older = token('st_1', teacher.id);
    await store.putStaffApiToken(newer);
    await store.putStaffApiToken(older);
    await store.putStaffApiToken(token('st_3', pip.id));
    t.same(await store.findStaffApiToken('st_2'), newer, 'every field');
    t.equal((await store.findStaffApiToken('st_2'))?.lastUsedAt, undefined, 'never used: undefined');
    t.equal(await store.findStaffApiToken('st_none'), undefined);
    t.same((await store.listStaffApiTokens(teacher.id)).map((x) => x.id), ['st_1', 'st_2'], 'oldest first, only theirs');
    await store.touchStaffApiToken('st_1', '2027-01-20T00:00:00.000Z');
    t.equal((await store.findStaffApiToken('st_1'))?.lastUsedAt, '2027-01-20T00:00:00.000Z', 'touched');
    await store.touchStaffApiToken('st_none', '2027-01-20T00:00:00.000Z');
    t.equal(await store.findStaffApiToken('st_none'), undefined, 'touching a missing token makes none');
    t.equal(await store.deleteStaffApiToken(pip.id, 'st_1'), false, "not another person's");
    t.equal(await store.deleteStaffApiToken(teacher.id, 'st_1'), true);
    t.equal(await store.deleteStaffApiToken(teacher.id, 'st_1'), false, 'already gone');
    t.same((await store.listStaffApiTokens(teacher.id)).map((x) => x.id), ['st_2']);
    t.equal(await store.findStaffApiToken('st_1'), undefined);
  });

  t.test('staff: refused for a person or school that does not exist; deleting a person removes all of theirs', async (t) => {
    const { store } = await fresh(t);
    const { org, other, teacher, pip } = await pupils(store);
    const missing = { statusCode: 404 } as unknown as Error;
    await t.rejects(store.putStaffGrant(grant(org.id, 'u_ghost')), missing, 'a grant for nobody');
    await t.rejects(store.putStaffGrant(grant('o_ghost', teacher.id)), missing, 'a grant in no school');
    await t.rejects(store.putStaffSecondFactor(factor('u_ghost')), missing, 'a factor for nobody');
    await t.rejects(store.putStaffApiToken(token('st_x', 'u_ghost')), missing, 'a token for nobody');
    for (const o of [org.id, other.id]) await store.putStaffGrant(grant(o, teacher.id));
    await store.putStaffGrant(grant(org.id, pip.id, { role: 'teacher' }));
    await store.putStaffSecondFactor(factor(teacher.id));
    await store.putStaffApiToken(token('st_1', teacher.id));
    await store.putStaffApiToken(token('st_2', pip.id));
    t.equal(await store.deleteUser(teacher.id, NOW), true);
    t.same((await store.listStaffGrants(org.id)).map((g) => g.userId), [pip.id], 'their grants went, in every school');
    t.same(await store.listStaffGrants(other.id), []);
    t.same(await store.userStaffGrants(teacher.id), []);
    t.equal(await store.getStaffSecondFactor(teacher.id), undefined, 'their second factor');
    t.equal(await store.findStaffApiToken('st_1'), undefined, 'their tokens');
    t.same(await store.listStaffApiTokens(teacher.id), []);
    t.ok(await store.findStaffApiToken('st_2'), "another person's stay");
  });
}
