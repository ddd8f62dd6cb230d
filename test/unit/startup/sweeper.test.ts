import t from 'tap';
import { openStore } from '../../../adapters/open-store.js';
import { ManualClock } from '../../../src/clock.js';
import { rosterSettings } from '../../../src/config/roster.js';
import { importRoster } from '../../../src/roster/import-roster.js';
import { sweepTick } from '../../../src/startup/startup.js';
import { org, person, source } from '../../helpers/roster-plans.js';

const DAY = 86_400_000;

t.test('the sweeper deletes leavers past retention once an hour (every sixth sweep), and only those', async (t) => {
  const clock = new ManualClock(Date.parse('2027-01-10T08:00:00Z'));
  const store = await openStore('sqlite::memory:', clock);
  t.teardown(() => store.close());
  const people = (n: number) => Array.from({ length: n }, (_, i) => person(`s${i}`, `kid${i}.k`, 'sch1'));
  const options = { clock, settings: rosterSettings({}), by: 'test', lockWaitMs: 0, allowMassRemoval: true };
  await importRoster(store, 'x', { ...options, read: async () => source({ orgs: [org('sch1', 'Hill')], users: people(10) }) });
  await importRoster(store, 'x', { ...options, read: async () => source({ orgs: [org('sch1', 'Hill')], users: people(8) }) });
  const hill = (await store.findOrganisation('hill'))!;
  const usernames = async () => (await store.listUsers(hill.id)).map((u) => u.username).sort();
  const logged: string[] = [];
  const log = { info: (_o: object, m: string) => logged.push(m), warn: () => {}, error: (_o: object, m: string) => logged.push(m), debug: () => {} };
  const retention = { clock, days: 90 };

  clock.advance(91 * DAY);
  for (let tick = 1; tick <= 5; tick += 1) await sweepTick(store, log, tick, retention);
  t.equal((await usernames()).length, 10, 'not before the sixth sweep');
  await sweepTick(store, log, 6, retention);
  t.same(await usernames(), ['kid0.k', 'kid1.k', 'kid2.k', 'kid3.k', 'kid4.k', 'kid5.k', 'kid6.k', 'kid7.k'], 'the two leavers are deleted');
  t.same(logged, ['2 leaver(s) deleted after the retention period']);

  await importRoster(store, 'x', { ...options, read: async () => source({ orgs: [org('sch1', 'Hill')], users: people(7) }) });
  clock.advance(89 * DAY);
  await sweepTick(store, log, 12, retention);
  t.equal((await usernames()).length, 8, 'a leaver of 89 days is kept');
  await sweepTick(store, log, 12, undefined);
  t.equal((await usernames()).length, 8, 'without a retention setting, no leaver is deleted');
});

t.test('the sweeper deletes audit events past their retention once an hour, and only with a retention given', async (t) => {
  const clock = new ManualClock(Date.parse('2027-01-10T08:00:00Z'));
  const store = await openStore('sqlite::memory:', clock);
  t.teardown(() => store.close());
  const event = (id: string, daysAgo: number) => ({
    id, organisationId: 'o100000000000001', at: new Date(clock.now().getTime() - daysAgo * DAY).toISOString(), kind: 'launch' as const, action: 'launch', count: 1,
  });
  await store.appendAudit([event('old', 366), event('older', 500), event('recent', 364)]);
  const kept = async () => (await store.queryAudit({ organisationId: 'o100000000000001', limit: 10 })).map((e) => e.id);
  const logged: string[] = [];
  const log = { info: (_o: object, m: string) => logged.push(m), warn: () => {}, error: (_o: object, m: string) => logged.push(m), debug: () => {} };
  for (let tick = 1; tick <= 5; tick += 1) await sweepTick(store, log, tick, { clock, days: 90, auditDays: 365 });
  t.same(await kept(), ['recent', 'old', 'older'], 'not before the sixth sweep');
  await sweepTick(store, log, 12, { clock, days: 90 });
  t.same(await kept(), ['recent', 'old', 'older'], 'without the audit retention, nothing');
  await sweepTick(store, log, 6, { clock, days: 90, auditDays: 365 });
  t.same(await kept(), ['recent'], 'older than 365 days: deleted');
  t.same(logged, ['2 audit event(s) deleted after the retention period']);
});
