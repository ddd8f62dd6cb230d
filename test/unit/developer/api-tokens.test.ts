import t from 'tap';
import { clientSecretMatches } from '../../../src/clients/client-secret.js';
import {
  API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_ACTIVE, API_TOKEN_MAX_DAYS, ApiTokens, parseApiToken,
} from '../../../src/developer/api-tokens.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../src/developer/errors.js';
import { developerStore } from '../../helpers/developer-store.js';

interface Teardown { teardown(fn: () => unknown): void }

const DAY = 24 * 60 * 60 * 1000;

async function setUp(t: Teardown) {
  const { store, clock, log, lines, dev } = await developerStore(t, { level: 'debug' });
  const tokens = new ApiTokens({ store, clock, log });
  return { store, clock, tokens, lines, dev };
}

const fieldsOf = (err: unknown) => (err instanceof ValidationError ? err.fields.map((f) => f.path) : err);

t.test('create: lyd_<id>_<secret> with 256 random bits, kept only as a hash, hint = last 4, default 30 days', async (t) => {
  const { tokens, store, clock, dev, lines } = await setUp(t);
  const ada = await dev('Ada');
  const { token, record } = await tokens.create(ada, { label: '  CI deploys ' });
  t.match(token, /^lyd_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  const parsed = parseApiToken(token)!;
  t.equal(Buffer.from(parsed.secret, 'base64url').length, 32, '256-bit secret');
  t.equal(parsed.id, record.id);
  t.match(record, { developerId: ada.id, label: 'CI deploys', hint: token.slice(-4), createdAt: clock.now().toISOString() });
  t.equal(Date.parse(record.expiresAt) - clock.now().getTime(), API_TOKEN_DEFAULT_DAYS * DAY);
  const stored = await store.findApiToken(record.id);
  t.ok(stored && clientSecretMatches(stored.hash, token), 'the stored hash matches the token');
  t.notOk(JSON.stringify(stored).includes(parsed.secret), 'the secret itself is not stored');
  clock.advance(1000); // listed oldest first: its own instant
  const second = await tokens.create(ada, { label: 'laptop', expiresInDays: API_TOKEN_MAX_DAYS });
  t.not(second.token, token);
  t.equal(Date.parse(second.record.expiresAt) - clock.now().getTime(), API_TOKEN_MAX_DAYS * DAY);
  t.same((await tokens.list(ada.id)).map((r) => r.label), ['CI deploys', 'laptop'], 'oldest first');
  const events = await store.listDeveloperEvents(`developer:${ada.id}`, 10);
  t.same(events.map((e) => [e.action, e.actorId, e.actorName, e.detail]), [
    ['token.created', ada.id, 'Ada', { label: 'laptop', hint: second.record.hint }],
    ['token.created', ada.id, 'Ada', { label: 'CI deploys', hint: record.hint }],
  ], 'recorded with label and hint only');
  t.ok(lines.some((l) => l.includes('"event":"developer.token_created"') && l.includes(record.id)));
  t.notOk(lines.some((l) => l.includes(parsed.secret)), 'never logged');
});

t.test('create: label required (at most 60 characters, one line), expiry 1 to 90 whole days', async (t) => {
  const { tokens, dev } = await setUp(t);
  const ada = await dev('Ada');
  const refused = (input: { label: string; expiresInDays?: number }) => tokens.create(ada, input).then(() => 'accepted', fieldsOf);
  t.same(await refused({ label: '' }), ['label']);
  t.same(await refused({ label: '   ' }), ['label']);
  t.same(await refused({ label: 'x'.repeat(61) }), ['label']);
  t.same(await refused({ label: 'two\nlines' }), ['label']);
  t.equal(await refused({ label: '🙂'.repeat(60) }), 'accepted', '60 characters, counted as characters');
  for (const days of [0, -1, 91, 366, 1.5, Number.NaN]) t.same(await refused({ label: 'x', expiresInDays: days }), ['expires_in_days'], `${days} days`);
  t.equal(await refused({ label: 'x', expiresInDays: 1 }), 'accepted');
  t.same(await tokens.list(ada.id).then((l) => l.length), 2, 'nothing stored for a refusal');
});

t.test('create: at most 50 unexpired tokens at once; expired ones do not count', async (t) => {
  const { tokens, clock, dev } = await setUp(t);
  const ada = await dev('Ada');
  for (let i = 0; i < API_TOKEN_MAX_ACTIVE - 1; i += 1) await tokens.create(ada, { label: `t${i}`, expiresInDays: 1 });
  await tokens.create(ada, { label: 'long', expiresInDays: 30 });
  t.ok((await tokens.create(ada, { label: 'one too many' }).catch((e) => e)) instanceof ConflictError);
  clock.advance(2 * DAY);
  t.ok(await tokens.create(ada, { label: 'after expiry' }), 'the expired ones free their places');
});

t.test('verify: the developer for a good token; nothing for malformed, unknown, wrong, expired, revoked, or a deleted developer', async (t) => {
  const { tokens, store, clock, dev, lines } = await setUp(t);
  const ada = await dev('Ada');
  const { token, record } = await tokens.create(ada, { label: 'ci', expiresInDays: 2 });
  t.equal((await tokens.verify(token))?.id, ada.id);
  const parsed = parseApiToken(token)!;
  const flip = parsed.secret.endsWith('A') ? 'B' : 'A';
  for (const bad of [
    '', 'lyd_', token.slice(0, -1), `${token}x`, token.toUpperCase(), `Bearer ${token}`,
    `lyd_${parsed.id}_${parsed.secret.slice(0, -1)}${flip}`, // right id, wrong secret
    `lyd_${'0'.repeat(16)}_${parsed.secret}`, // unknown id
    `lyd_${parsed.id}x_${parsed.secret}`, token.replace('lyd_', 'lyx_'),
  ]) {
    t.equal(await tokens.verify(bad), undefined, `refused: ${bad.slice(0, 30)}`);
  }
  clock.advance(2 * DAY - 1000);
  t.ok(await tokens.verify(token), 'valid until its expiry');
  clock.advance(1000);
  t.equal(await tokens.verify(token), undefined, 'expired at its expiry');
  t.ok(lines.some((l) => l.includes('"reason":"expired"')));

  const fresh = await tokens.create(ada, { label: 'fresh' });
  await tokens.revoke(ada, fresh.record.id);
  t.equal(await tokens.verify(fresh.token), undefined, 'revoked');

  const eve = await dev('Eve');
  const eves = await tokens.create(eve, { label: 'eve' });
  t.ok(await tokens.verify(eves.token));
  await store.putApiToken({ ...(await store.findApiToken(eves.record.id))!, developerId: 'dev_gone' });
  t.equal(await tokens.verify(eves.token), undefined, 'a token whose developer no longer exists');
  t.notOk(lines.some((l) => l.includes(parsed.secret) || l.includes(eves.token)), 'no token in the logs');
  t.ok(record);
});

t.test('verify: lastUsedAt is touched at most once a minute', async (t) => {
  const { tokens, store, clock, dev } = await setUp(t);
  const ada = await dev('Ada');
  const { token, record } = await tokens.create(ada, { label: 'ci' });
  t.equal((await store.findApiToken(record.id))?.lastUsedAt, undefined);
  const first = clock.now().toISOString();
  await tokens.verify(token);
  t.equal((await store.findApiToken(record.id))?.lastUsedAt, first);
  clock.advance(59_000);
  await tokens.verify(token);
  t.equal((await store.findApiToken(record.id))?.lastUsedAt, first, 'not again within the minute');
  clock.advance(1_000);
  await tokens.verify(token);
  t.equal((await store.findApiToken(record.id))?.lastUsedAt, clock.now().toISOString(), 'again after a minute');
});

t.test('revoke: only the developer’s own tokens; recorded with label and hint', async (t) => {
  const { tokens, store, dev } = await setUp(t);
  const ada = await dev('Ada');
  const eve = await dev('Eve');
  const { token, record } = await tokens.create(ada, { label: 'ci' });
  t.ok((await tokens.revoke(eve, record.id).catch((e) => e)) instanceof NotFoundError, 'another developer’s token is not found');
  t.ok(await tokens.verify(token), 'and still works');
  t.ok((await tokens.revoke(ada, 'nope').catch((e) => e)) instanceof NotFoundError);
  await tokens.revoke(ada, record.id);
  t.equal(await tokens.verify(token), undefined);
  t.same(await tokens.list(ada.id), []);
  t.ok((await tokens.revoke(ada, record.id).catch((e) => e)) instanceof NotFoundError, 'twice: not found');
  const [event] = await store.listDeveloperEvents(`developer:${ada.id}`, 1);
  t.match(event, { action: 'token.revoked', actorId: ada.id, actorName: 'Ada', detail: { label: 'ci', hint: record.hint } });
  t.same(Object.keys(event!.detail).sort(), ['hint', 'label']);
  t.same(await store.listDeveloperEvents(`developer:${eve.id}`, 10), [], 'nothing recorded for the refused attempt');
});

t.test('verify: a token an earlier release made for up to 365 days acts for 90 at most', async (t) => {
  const { tokens, store, clock, dev } = await setUp(t);
  const ada = await dev('Ada');
  const { token, record } = await tokens.create(ada, { label: 'old script', expiresInDays: 30 });
  await store.putApiToken({ ...record, expiresAt: new Date(Date.parse(record.createdAt) + 365 * DAY).toISOString() }); // as an earlier release stored it
  clock.advance(89 * DAY);
  t.ok(await tokens.verify(token), 'day 89: still good');
  clock.advance(2 * DAY);
  t.equal(await tokens.verify(token), undefined, 'day 91: refused, although its record says 365 days');
});
