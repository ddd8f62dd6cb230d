import t from 'tap';
import type { User } from '../../../adapters/store.js';
import { issuedAtOf, maySignIn, stillValid } from '../../../src/accounts/account-status.js';

const user = (extra: Partial<User> = {}): User => ({
  id: 'u100000000000001', organisationId: 'o100000000000001', username: 'ada', givenName: 'Ada', familyName: 'L', type: 'student', ...extra,
});

t.test('a suspended user may not sign in, and nothing of theirs counts', async (t) => {
  t.ok(maySignIn(user()));
  t.notOk(maySignIn(user({ suspendedAt: '2027-01-01T00:00:00.000Z' })));
  t.notOk(stillValid(user({ suspendedAt: '2027-01-01T00:00:00.000Z' }), 2_000_000_000), 'not even a session begun later');
  t.notOk(stillValid(undefined, 2_000_000_000), 'a deleted user has nothing');
});

t.test('sessions and tokens count from sessionsValidAfter on, by whole seconds', async (t) => {
  const ended = user({ sessionsValidAfter: 1_800_000_000_500 }); // 1 800 000 000.5 s
  t.ok(stillValid(user(), 1), 'never ended: everything counts');
  t.notOk(stillValid(ended, 1_799_999_999), 'begun the second before: ended');
  t.ok(stillValid(ended, 1_800_000_000), 'begun in the same second: counts (a sign-in right after a reset is not looped)');
  t.ok(stillValid(ended, 1_800_000_001), 'begun after: counts');
  t.notOk(stillValid(ended, undefined), 'no time to compare: ended');
});

t.test('what began when: a token\'s sign-in time, else its issue time; a session\'s sign-in time', async (t) => {
  t.equal(issuedAtOf({ authTime: 10, iat: 20 }, { loginTs: 30 }), 10, 'refresh token or code: when the user signed in');
  t.equal(issuedAtOf({ iat: 20 }, { loginTs: 30 }), 20, 'access token: when it was issued');
  t.equal(issuedAtOf(undefined, { loginTs: 30 }), 30, 'no token: the session');
  t.equal(issuedAtOf(undefined, undefined), undefined);
  t.equal(issuedAtOf({ authTime: 'x' }, undefined), undefined, 'only numbers');
});
