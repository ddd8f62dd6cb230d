import t, { type Test } from 'tap';
import { openStore } from '../../../adapters/open-store.js';
import { AuditLog } from '../../../src/audit/audit-log.js';
import { FAILURE_ROWS_PER_DAY, OVERFLOW_DETAIL } from '../../../src/audit/failure-rows.js';
import { ManualClock } from '../../../src/clock.js';
import type { Details } from '../../../interactions/context.js';
import { failedSignInEvent, type SignInFacts } from '../../../interactions/audit-sign-in.js';

/**
 * Failed sign-ins as the audit trail keeps them (interactions/audit-sign-in.ts, src/audit/failure-rows.ts):
 * merged per source, an IPv6 source being its /64, and at most FAILURE_ROWS_PER_DAY rows a school's day,
 * then one overflow row. Written through the recorder into a real SQLite store, without HTTP.
 */

const ORG = 'o100000000000001';
const AT = new Date('2027-01-15T08:00:00.000Z');
const facts: SignInFacts = {
  organisationId: ORG, method: 'password', device: 'other',
  // Only the app's client_id is read of the interaction.
  details: { params: { client_id: 'demo-app' } } as unknown as Details,
};

async function fixture(t: Test) {
  const clock = new ManualClock(AT);
  const store = await openStore('sqlite::memory:', clock);
  const audit = new AuditLog({ store, clock, log: { info: () => {}, warn: () => {} }, batchSize: 500 });
  t.teardown(async () => { await audit.close(); await store.close(); });
  const fail = async (ip: string) => audit.record(await failedSignInEvent(store, { ip }, facts, { result: 'wrong_credential', at: clock.now() }));
  const rows = async () => {
    await audit.flush();
    return store.queryAudit({ organisationId: ORG, kinds: ['sign_in_failed'], limit: 100_000 });
  };
  return { clock, fail, rows };
}

t.test('a flood from 3,000 addresses makes at most the day\'s rows and one overflow row, every failure counted', async (t) => {
  const { fail, rows } = await fixture(t);
  const flood = 3_000;
  for (let n = 0; n < flood; n += 1) await fail(`198.18.${n >> 8}.${n & 255}`);
  const found = await rows();
  t.ok(found.length <= FAILURE_ROWS_PER_DAY + 1, `${found.length} rows, at most ${FAILURE_ROWS_PER_DAY} and the overflow`);
  t.equal(found.reduce((sum, e) => sum + e.count, 0), flood, 'the counts add up to every failure');
  const overflow = found.filter((e) => e.aggregate === 'fail:2027-01-15:overflow');
  t.equal(overflow.length, 1, 'one overflow row');
  t.match(overflow[0], { kind: 'sign_in_failed', action: 'sign_in', count: flood - FAILURE_ROWS_PER_DAY, detail: OVERFLOW_DETAIL });
  t.equal(overflow[0]!.source, undefined, 'the overflow row names no source');
  t.equal(overflow[0]!.subjectId, undefined, 'nor a person');

  await fail('198.18.0.1');
  t.equal((await rows()).find((e) => e.source === '198.18.0.1')?.count, 2, 'a source with a row of its own still merges there');
});

t.test('addresses of one IPv6 /64 are one source; another /64, or an IPv4 address, another', async (t) => {
  const { fail, rows } = await fixture(t);
  for (let n = 1; n <= 50; n += 1) await fail(`2001:db8:1:2:${n.toString(16)}:0:0:1`);
  await fail('2001:db8:1:3::1');
  await fail('::ffff:192.0.2.7');
  await fail('192.0.2.7');
  const found = await rows();
  t.same(found.map((e) => [e.source, e.count, e.aggregate]).sort(), [
    ['192.0.2.7', 2, 'fail:2027-01-15:192.0.2.7:password:?'],
    ['2001:db8:1:2::/64', 50, 'fail:2027-01-15:2001:db8:1:2::/64:password:?'],
    ['2001:db8:1:3::/64', 1, 'fail:2027-01-15:2001:db8:1:3::/64:password:?'],
  ]);
});

t.test('the bound is per day: the next UTC day has rows of its own again', async (t) => {
  const { clock, fail, rows } = await fixture(t);
  for (let n = 0; n < FAILURE_ROWS_PER_DAY + 5; n += 1) await fail(`198.19.${n >> 8}.${n & 255}`);
  clock.advance(24 * 60 * 60 * 1000);
  await fail('192.0.2.9');
  const next = (await rows()).filter((e) => e.at.startsWith('2027-01-16'));
  t.same(next.map((e) => [e.source, e.aggregate]), [['192.0.2.9', 'fail:2027-01-16:192.0.2.9:password:?']]);
});
