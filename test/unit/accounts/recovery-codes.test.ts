import t from 'tap';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from '../../../src/accounts/recovery-codes.js';

t.test('recovery codes: ten, 80 bits each, typed loosely, hashed', async (t) => {
  const codes = newRecoveryCodes();
  t.equal(codes.length, 10);
  t.equal(new Set(codes).size, 10);
  for (const c of codes) t.match(c, /^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
  const [c] = codes;
  t.ok(looksLikeRecoveryCode(c!.toLowerCase().replace(/-/g, ' ')));
  t.equal(hashRecoveryCode(c!.toLowerCase()), hashRecoveryCode(c!));
  t.match(hashRecoveryCode(c!), /^sha256:[A-Za-z0-9_-]{43}$/);
  t.notOk(looksLikeRecoveryCode('123456'));
});
