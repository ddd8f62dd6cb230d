import t from 'tap';
import { hashRecoveryCode } from '../../../src/accounts/recovery-codes.js';
import { type SealedSecondFactor, type SecondFactorRecords, SecondFactors } from '../../../src/accounts/second-factor.js';
import { newTotpSecret, totpCode } from '../../../src/accounts/totp.js';
import { ManualClock } from '../../../src/clock.js';
import { wrongTotpCode } from '../../helpers/developer.js';

/**
 * The shared two-step sign-in service (src/accounts/second-factor.ts) over one person's records as an area
 * keeps them, here in memory with the contract's rules: the last step accepted, the recovery codes spent
 * one at a time. What each area's own records do is tested with the area (the developer area's and the
 * school console's integration tests, on SQLite and Redis).
 */

function memoryRecords(aad = 'test:1') {
  let stored: SealedSecondFactor | undefined;
  let lastStep = -Infinity;
  const calls = { turnOn: 0, turnOff: 0 };
  const records: SecondFactorRecords = {
    aad,
    read: async () => stored && { ...stored, recoveryCodeHashes: [...stored.recoveryCodeHashes] },
    turnOn: async (factor, step) => {
      if (step <= lastStep) return false;
      stored = factor;
      lastStep = step;
      calls.turnOn += 1;
      return true;
    },
    turnOff: async () => {
      const was = stored !== undefined;
      stored = undefined;
      if (was) calls.turnOff += 1;
      return was;
    },
    replaceRecoveryCodes: async (hashes) => {
      if (stored) stored = { ...stored, recoveryCodeHashes: hashes };
      return stored !== undefined;
    },
    acceptStep: async (step) => {
      if (step <= lastStep) return false;
      lastStep = step;
      return true;
    },
    spendRecoveryCode: async (hash) => {
      if (!stored?.recoveryCodeHashes.includes(hash)) return undefined;
      stored = { ...stored, recoveryCodeHashes: stored.recoveryCodeHashes.filter((h) => h !== hash) };
      return stored.recoveryCodeHashes.length;
    },
  };
  return { records, calls, stored: () => stored };
}

const KEY = Buffer.alloc(32, 7);

t.test('enable: a wrong code stores nothing; a right one stores the secret sealed and ten hashed recovery codes', async (t) => {
  const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
  const factors = new SecondFactors({ clock, keyEncryptionKey: KEY });
  const { records, calls, stored } = memoryRecords();
  const secret = newTotpSecret();
  t.equal(await factors.enable(records, secret, wrongTotpCode(secret, clock)), undefined, 'a wrong code');
  t.equal(calls.turnOn, 0, 'nothing stored');
  const codes = await factors.enable(records, secret, totpCode(secret, clock.now()));
  t.equal(codes?.length, 10);
  t.notMatch(stored()!.totpSecret, secret, 'the secret is sealed');
  t.same(stored()!.recoveryCodeHashes, codes!.map(hashRecoveryCode), 'the codes kept as hashes');
  t.notOk(await factors.verify(records, totpCode(secret, clock.now())), 'the code that turned it on is used up');
  t.equal(await factors.disable(records), true);
  t.equal(await factors.disable(records), false, 'off already');
});

t.test('verify: a TOTP code once, never an older one; a recovery code once, loosely typed', async (t) => {
  const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
  const factors = new SecondFactors({ clock, keyEncryptionKey: KEY });
  const { records } = memoryRecords();
  const secret = newTotpSecret();
  const codes = (await factors.enable(records, secret, totpCode(secret, clock.now())))!;
  clock.advance(60_000);
  const now = totpCode(secret, clock.now());
  const before = totpCode(secret, new Date(clock.now().getTime() - 30_000));
  t.same(await factors.verify(records, now), { how: 'totp' });
  t.equal(await factors.verify(records, now), undefined, 'replayed');
  t.equal(await factors.verify(records, before), undefined, 'older than one accepted');
  t.same(await factors.verify(records, codes[0]!.toLowerCase().replace(/-/g, ' ')), { how: 'recovery_code', remaining: 9 });
  t.equal(await factors.verify(records, codes[0]!), undefined, 'spent');
  t.equal(await factors.verify(records, 'not a code'), undefined);
  clock.advance(30_000);
  t.notOk(await factors.totpCodeMatches(records, codes[1]!), 'asking again takes a TOTP code, never a recovery code');
  t.ok(await factors.totpCodeMatches(records, totpCode(secret, clock.now())));
});

t.test('the sealed secret is bound to its person, and new recovery codes replace the old', async (t) => {
  const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
  const factors = new SecondFactors({ clock, keyEncryptionKey: KEY });
  const ada = memoryRecords('test:ada');
  const secret = newTotpSecret();
  const old = (await factors.enable(ada.records, secret, totpCode(secret, clock.now())))!;
  const eve = memoryRecords('test:eve');
  await eve.records.turnOn(ada.stored()!, 0);
  clock.advance(30_000);
  await t.rejects(factors.verify(eve.records, totpCode(secret, clock.now())), 'a secret copied to someone else does not decrypt');

  const fresh = (await factors.replaceRecoveryCodes(ada.records))!;
  t.equal(fresh.length, 10);
  t.equal(await factors.verify(ada.records, old[0]!), undefined, 'an old code no longer works');
  t.same(await factors.verify(ada.records, fresh[0]!), { how: 'recovery_code', remaining: 9 });
  await factors.disable(ada.records);
  t.equal(await factors.replaceRecoveryCodes(ada.records), undefined, 'none while it is off');
  t.equal(await factors.verify(ada.records, fresh[1]!), undefined, 'nothing verifies while it is off');
});
