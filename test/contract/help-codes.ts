import type { Test } from 'tap';
import type { HelpCode, Store } from '../../adapters/store.js';
import { type Fresh, START } from './harness.js';

const HOUR = 3600_000;
const at = (ms: number) => new Date(START.getTime() + ms).toISOString();
const NOW = at(0);

/** A school with a teacher and two pupils. */
export async function pupils(store: Store) {
  const org = await store.upsertOrganisation({ slug: 'north-school', name: 'North School' });
  const other = await store.upsertOrganisation({ slug: 'south-school', name: 'South School' });
  const person = (username: string, type: string, organisationId = org.id) =>
    store.upsertUser({ organisationId, username, givenName: username, familyName: 'X', type });
  return { org, other, teacher: await person('tess', 'employee'), pip: await person('pip', 'student'), pam: await person('pam', 'student'), sam: await person('sam', 'student', other.id) };
}

export const helpCode = (userId: string, organisationId: string, over: Partial<HelpCode> = {}): HelpCode => ({
  userId, organisationId, codeHash: `hmac-${userId}`, createdAt: NOW, expiresAt: at(8 * HOUR), issuedBy: 'u_teacher', failures: 0, ...over,
});

/** Help codes: one per pupil, used once, voided by wrong tries, gone when they expire or the pupil is deleted. */
export function helpCodesContract(t: Test, fresh: Fresh): void {
  t.test('help codes: put, find and list round-trip every field; a pupil holds one, the newest', async (t) => {
    const { store, reopen } = await fresh(t);
    const { org, other, pip, pam, sam } = await pupils(store);
    t.equal(await store.findHelpCode(pip.id, NOW), undefined, 'none yet');
    const first = helpCode(pip.id, org.id, { expiresAt: at(6 * HOUR) });
    await store.putHelpCode(first);
    t.same(await store.findHelpCode(pip.id, NOW), first, 'every field');
    const second = helpCode(pip.id, org.id, { codeHash: 'hmac-second', createdAt: at(HOUR), expiresAt: at(5 * HOUR), failures: 2 });
    await store.putHelpCode(second);
    t.same(await store.findHelpCode(pip.id, NOW), second, 'replaced whole: the earlier code is gone');
    await store.putHelpCode(helpCode(pam.id, org.id, { expiresAt: at(4 * HOUR) }));
    await store.putHelpCode(helpCode(sam.id, other.id));
    t.same((await store.listHelpCodes(org.id, NOW)).map((c) => c.userId), [pam.id, pip.id], "the school's codes, by expiry");
    t.same((await store.listHelpCodes(other.id, NOW)).map((c) => c.userId), [sam.id], "another school's are its own");
    t.same(await store.listHelpCodes('o_none', NOW), [], 'a school without any');
    await store.putHelpCode(helpCode(pam.id, other.id, { expiresAt: at(7 * HOUR) }));
    t.same((await store.listHelpCodes(org.id, NOW)).map((c) => c.userId), [pip.id], 'a code given again for another school leaves the first');
    t.same((await store.listHelpCodes(other.id, NOW)).map((c) => c.userId), [pam.id, sam.id], 'and is listed there');
    if (reopen) t.same(await (await reopen()).findHelpCode(pip.id, NOW), second, 'another instance reads the same');
  });

  t.test('help codes: a try is none, wrong or used; a used code never works again', async (t) => {
    const { store } = await fresh(t);
    const { org, pip, pam } = await pupils(store);
    t.equal(await store.tryHelpCode(pip.id, 'hmac-anything', NOW, 5), 'none', 'no code');
    await store.putHelpCode(helpCode(pip.id, org.id));
    await store.putHelpCode(helpCode(pam.id, org.id));
    t.equal(await store.tryHelpCode(pip.id, `hmac-${pam.id}`, NOW, 5), 'wrong', "another pupil's code is wrong for this one");
    t.equal(await store.tryHelpCode(pip.id, 'hmac-guess', NOW, 5), 'wrong');
    t.equal((await store.findHelpCode(pip.id, NOW))?.failures, 2, 'wrong tries are counted');
    t.equal(await store.tryHelpCode(pip.id, `hmac-${pip.id}`, at(HOUR), 5), 'used', 'the right code');
    t.equal(await store.findHelpCode(pip.id, NOW), undefined, 'used: gone');
    t.equal(await store.tryHelpCode(pip.id, `hmac-${pip.id}`, at(HOUR), 5), 'none', 'a second time: none');
    t.equal((await store.findHelpCode(pam.id, NOW))?.failures, 0, "the other pupil's code is untouched");
    t.equal(await store.deleteHelpCode(pam.id), true, 'deleted');
    t.equal(await store.deleteHelpCode(pam.id), false, 'already gone');
    t.equal(await store.tryHelpCode(pam.id, `hmac-${pam.id}`, NOW, 5), 'none', 'a deleted code does not work');
  });

  t.test('help codes: the failure that reaches the most voids the code', async (t) => {
    const { store } = await fresh(t);
    const { org, pip } = await pupils(store);
    await store.putHelpCode(helpCode(pip.id, org.id));
    t.equal(await store.tryHelpCode(pip.id, 'hmac-1', NOW, 3), 'wrong');
    t.equal(await store.tryHelpCode(pip.id, 'hmac-2', NOW, 3), 'wrong');
    t.equal((await store.findHelpCode(pip.id, NOW))?.failures, 2, 'still there after two of three');
    t.equal(await store.tryHelpCode(pip.id, 'hmac-3', NOW, 3), 'wrong', 'the third');
    t.equal(await store.findHelpCode(pip.id, NOW), undefined, 'void');
    t.equal(await store.tryHelpCode(pip.id, `hmac-${pip.id}`, NOW, 3), 'none', 'the right code no longer works');
    await store.putHelpCode(helpCode(pip.id, org.id, { failures: 4 }));
    t.equal(await store.tryHelpCode(pip.id, 'hmac-x', NOW, 5), 'wrong', 'failures kept from the put count too');
    t.equal(await store.findHelpCode(pip.id, NOW), undefined, 'void at the fifth');
  });

  t.test('help codes: an expired code is not found, not listed and does not work', async (t) => {
    const { store, clock } = await fresh(t);
    const { org, pip, pam } = await pupils(store);
    await store.putHelpCode(helpCode(pip.id, org.id, { expiresAt: at(HOUR) }));
    await store.putHelpCode(helpCode(pam.id, org.id, { expiresAt: at(2 * HOUR) }));
    t.ok(await store.findHelpCode(pip.id, at(HOUR - 1)), 'live until its time');
    t.equal(await store.findHelpCode(pip.id, at(HOUR)), undefined, 'not at its time');
    t.same((await store.listHelpCodes(org.id, at(HOUR))).map((c) => c.userId), [pam.id], 'not listed');
    t.equal(await store.tryHelpCode(pip.id, `hmac-${pip.id}`, at(HOUR), 5), 'none', 'the right code, too late');
    clock.advance(3 * HOUR);
    await store.sweep();
    t.equal(await store.tryHelpCode(pam.id, `hmac-${pam.id}`, at(3 * HOUR), 5), 'none', 'after a sweep too');
    t.same(await store.listHelpCodes(org.id, at(0)), [], 'swept, or gone when tried');
  });

  t.test('help codes: tries at the same time use a code once', async (t) => {
    const { store, reopen } = await fresh(t);
    const { org, pip } = await pupils(store);
    const others = reopen ? [await reopen(), await reopen()] : [store];
    for (let round = 0; round < 3; round += 1) {
      await store.putHelpCode(helpCode(pip.id, org.id));
      const tries = Array.from({ length: 12 }, (_, i) => others[i % others.length]!.tryHelpCode(pip.id, `hmac-${pip.id}`, NOW, 5));
      const outcomes = await Promise.all([...tries, store.tryHelpCode(pip.id, `hmac-${pip.id}`, NOW, 5)]);
      t.equal(outcomes.filter((o) => o === 'used').length, 1, `round ${round}: exactly one used`);
      t.same(outcomes.filter((o) => o !== 'used').sort(), Array(12).fill('none'), 'the others found none');
    }
    await store.putHelpCode(helpCode(pip.id, org.id));
    const wrong = await Promise.all(Array.from({ length: 8 }, (_, i) => others[i % others.length]!.tryHelpCode(pip.id, `hmac-w${i}`, NOW, 5)));
    t.equal(wrong.filter((o) => o === 'wrong').length, 5, 'wrong tries at once: five count, the fifth voids it');
    t.equal(wrong.filter((o) => o === 'none').length, 3, 'the rest find none');
  });

  t.test('help codes: refused for a pupil or school that does not exist; deleting the pupil removes the code', async (t) => {
    const { store } = await fresh(t);
    const { org, pip, pam } = await pupils(store);
    await t.rejects(store.putHelpCode(helpCode('u_ghost', org.id)), { statusCode: 404 } as unknown as Error, 'no such pupil');
    await t.rejects(store.putHelpCode(helpCode(pip.id, 'o_ghost')), { statusCode: 404 } as unknown as Error, 'no such school');
    await store.putHelpCode(helpCode(pip.id, org.id));
    await store.putHelpCode(helpCode(pam.id, org.id));
    t.equal(await store.deleteUser(pip.id, NOW), true);
    t.equal(await store.findHelpCode(pip.id, NOW), undefined, "the pupil's code went with them");
    t.same((await store.listHelpCodes(org.id, NOW)).map((c) => c.userId), [pam.id], 'and from the list');
  });
}
