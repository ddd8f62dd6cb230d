import t from 'tap';
import { clientSecretMatches } from '../../../src/clients/client-secret.js';
import {
  newPersonalToken, parsePersonalToken, PERSONAL_TOKEN_MAX_DAYS, personalTokenEndsAt, personalTokenLabelProblem, validPersonalTokenDays,
} from '../../../src/accounts/personal-tokens.js';

const DAY = 24 * 60 * 60 * 1000;

t.test('a token: <prefix><64-bit id>_<256-bit secret>, its hash and its last four characters', async (t) => {
  const made = newPersonalToken('lys_');
  t.match(made.token, /^lys_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  t.equal(made.token.slice(4, 20), made.id);
  t.ok(clientSecretMatches(made.hash, made.token), 'the hash is of the whole token');
  t.notMatch(made.hash, made.token.split('_')[2]!, 'and holds nothing of it');
  t.equal(made.hint, made.token.slice(-4));
  t.not(newPersonalToken('lys_').token, made.token);
  t.same(parsePersonalToken('lys_', made.token), { id: made.id, secret: made.token.split('_').slice(2).join('_') });
});

t.test('parsing: only the prefix asked for, and only the exact shape', async (t) => {
  const { token } = newPersonalToken('lys_');
  t.equal(parsePersonalToken('lyd_', token), undefined, 'another kind');
  for (const bad of ['', 'lys_', 'lys_abc_def', `${token}x`, token.slice(0, -1), token.replace('lys_', 'lys_X'), `lys_${'0'.repeat(16)}`]) {
    t.equal(parsePersonalToken('lys_', bad), undefined, `refused: ${bad.slice(0, 24)}`);
  }
});

t.test('labels, days, and the longest life', async (t) => {
  t.equal(personalTokenLabelProblem('Nightly sync'), undefined);
  t.equal(personalTokenLabelProblem(''), 'missing');
  t.equal(personalTokenLabelProblem('x'.repeat(61)), 'too_long');
  t.equal(personalTokenLabelProblem('🙂'.repeat(60)), undefined, 'characters, not code units');
  t.equal(personalTokenLabelProblem('two\nlines'), 'not_one_line');
  for (const ok of [1, 30, 90]) t.ok(validPersonalTokenDays(ok), `${ok} days`);
  for (const bad of [0, -1, 91, 1.5, Number.NaN]) t.notOk(validPersonalTokenDays(bad), `${bad} days`);
  const createdAt = '2030-01-01T00:00:00.000Z';
  t.equal(personalTokenEndsAt({ createdAt, expiresAt: '2030-01-31T00:00:00.000Z' }), Date.parse('2030-01-31T00:00:00.000Z'));
  t.equal(personalTokenEndsAt({ createdAt, expiresAt: '2031-01-01T00:00:00.000Z' }), Date.parse(createdAt) + PERSONAL_TOKEN_MAX_DAYS * DAY, 'never past 90 days');
});
