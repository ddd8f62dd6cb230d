import t from 'tap';
import { GENERATED_ALPHABET, generatePassword, passwordProblem } from '../../../src/accounts/user-password.js';

t.test('generatePassword: four groups of four from the unambiguous alphabet, every symbol drawn', async (t) => {
  t.equal(GENERATED_ALPHABET.length, 31);
  t.notMatch(GENERATED_ALPHABET, /[01oli]/, 'no 0, o, 1, l or i');
  const passwords = Array.from({ length: 2000 }, generatePassword);
  const symbol = `[${GENERATED_ALPHABET}]{4}`;
  t.ok(passwords.every((p) => new RegExp(`^${symbol}-${symbol}-${symbol}-${symbol}$`).test(p)), 'xxxx-xxxx-xxxx-xxxx');
  t.equal(new Set(passwords).size, passwords.length, 'no repeats');
  const seen = new Set(passwords.join('').replace(/-/g, ''));
  t.equal(seen.size, 31, 'every symbol of the alphabet turns up');
  t.equal(passwordProblem(passwords[0]!), undefined, 'and the policy accepts them');
});

t.test('passwordProblem: 8 to 1024 characters, counted as characters', async (t) => {
  t.equal(passwordProblem('1234567'), 'a password is 8 to 1024 characters');
  t.equal(passwordProblem(''), 'a password is 8 to 1024 characters');
  t.equal(passwordProblem('12345678'), undefined);
  t.equal(passwordProblem('x'.repeat(1024)), undefined);
  t.equal(passwordProblem('x'.repeat(1025)), 'a password is 8 to 1024 characters');
  t.equal(passwordProblem('🐶🐱🐭🐰🦊🐻🐼🐨'), undefined, 'eight emoji are eight characters (sixteen UTF-16 units)');
  t.equal(passwordProblem('🐶🐱🐭'), 'a password is 8 to 1024 characters', 'three emoji are three, not six');
});
