import t from 'tap';
import { type PersonalTokenKind, type PersonalTokenRecord, PersonalTokens } from '../../../src/accounts/personal-token-service.js';
import { ManualClock } from '../../../src/clock.js';

/**
 * The shared personal-token service (src/accounts/personal-token-service.ts) over one kind of token kept in
 * memory: what both areas' tokens do the same. Each area's own kind (its store, its history or audit trail)
 * is tested with the area: test/unit/developer/api-tokens.test.ts, test/integration/school-api-tokens.test.ts.
 */

type Token = PersonalTokenRecord & { ownerId: string };
interface Person { id: string; sessionsEndedAt?: number }

const DAY = 86_400_000;

function setUp() {
  const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
  const records = new Map<string, Token>();
  const people = new Map<string, Person>([['ada', { id: 'ada' }], ['eve', { id: 'eve' }]]);
  const lines: Record<string, unknown>[] = [];
  const kind: PersonalTokenKind<Token, Person> = {
    prefix: 'lyt_',
    maxActive: 2,
    log: { event: 'test.token', owner: 'ownerId', what: 'test token' },
    ownerOf: (r) => r.ownerId,
    record: (ownerId, fields) => ({ ...fields, ownerId }),
    put: async (r) => { records.set(r.id, r); },
    find: async (id) => records.get(id),
    list: async (ownerId) => [...records.values()].filter((r) => r.ownerId === ownerId),
    delete: async (ownerId, id) => records.get(id)?.ownerId === ownerId && records.delete(id),
    touch: async (id, at) => { const r = records.get(id); if (r) records.set(id, { ...r, lastUsedAt: at }); },
    owner: async (id) => people.get(id),
    sessionsEndedAt: (p) => p.sessionsEndedAt,
  };
  const tokens = new PersonalTokens({ clock, log: { info: (o: object) => { lines.push(o as Record<string, unknown>); } } }, kind);
  return { clock, records, people, lines, tokens };
}

t.test('create: the prefix, a hash at rest, the days asked for; no more than the kind allows that still work', async (t) => {
  const { clock, records, lines, tokens } = setUp();
  const ada = { id: 'ada' };
  const made = (await tokens.create('ada', ada, { label: 'ci', days: 1 }))!;
  t.match(made.token, /^lyt_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  t.notMatch(JSON.stringify([...records.values()]), made.token.split('_')[2]!, 'the secret is not kept');
  t.equal(Date.parse(made.record.expiresAt) - clock.now().getTime(), DAY);
  t.match(lines, [{ event: 'test.token_created', ownerId: 'ada', tokenId: made.record.id }]);
  t.ok(await tokens.create('ada', ada, { label: 'laptop' }));
  t.equal(await tokens.create('ada', ada, { label: 'one too many' }), undefined, 'two that work already');
  clock.advance(DAY);
  t.ok(await tokens.create('ada', ada, { label: 'after one expired' }), 'an expired one frees its place');
});

t.test('verify: a working token and its person; nothing once expired, revoked, its person gone or their sessions ended', async (t) => {
  const { clock, people, lines, tokens } = setUp();
  const made = (await tokens.create('ada', { id: 'ada' }, { label: 'ci', days: 2 }))!;
  t.same((await tokens.verify(made.token))?.owner, { id: 'ada' });
  const flipped = `${made.token.slice(0, -1)}${made.token.endsWith('A') ? 'B' : 'A'}`;
  for (const bad of ['', `${made.token}x`, made.token.replace('lyt_', 'lyd_'), flipped]) {
    t.equal(await tokens.verify(bad), undefined, `refused: ${bad.slice(0, 24)}`);
  }
  t.match(lines.at(-1), { event: 'test.token_refused', reason: 'mismatch' }, 'a wrong secret');
  people.set('ada', { id: 'ada', sessionsEndedAt: clock.now().getTime() + 1 });
  t.equal(await tokens.verify(made.token), undefined, 'made before the sessions ended');
  t.equal(tokens.endsAt(made.record, people.get('ada')!), clock.now().getTime() + 1, 'and it ends then');
  t.match(lines.at(-1), { event: 'test.token_refused', reason: 'sessions_ended' });
  people.set('ada', { id: 'ada', sessionsEndedAt: clock.now().getTime() - 1 });
  t.ok(await tokens.verify(made.token), 'made after they ended: works');
  people.delete('ada');
  t.equal(await tokens.verify(made.token), undefined, 'its person gone');
  people.set('ada', { id: 'ada' });
  clock.advance(2 * DAY);
  t.equal(await tokens.verify(made.token), undefined, 'expired');
  t.match(lines.at(-1), { reason: 'expired' });
});

t.test('revoke: only one\'s own; touch: at most once a minute', async (t) => {
  const { clock, records, tokens } = setUp();
  const made = (await tokens.create('ada', { id: 'ada' }, { label: 'ci' }))!;
  await tokens.touch(made.record);
  const first = records.get(made.record.id)!.lastUsedAt;
  t.equal(first, clock.now().toISOString());
  clock.advance(59_000);
  await tokens.touch(records.get(made.record.id)!);
  t.equal(records.get(made.record.id)!.lastUsedAt, first, 'not again within the minute');
  t.equal(await tokens.revoke('eve', made.record.id), undefined, 'another person\'s token is no token');
  t.ok(await tokens.verify(made.token), 'and it still works');
  t.equal((await tokens.revoke('ada', made.record.id))?.label, 'ci');
  t.equal(await tokens.verify(made.token), undefined, 'revoked');
  t.equal(await tokens.revoke('ada', made.record.id), undefined, 'twice: no such token');
});
