import t from 'tap';
import { openStore } from '../../../adapters/open-store.js';
import { AuditLog } from '../../../src/audit/audit-log.js';
import { ManualClock } from '../../../src/clock.js';
import { rosterSettings } from '../../../src/config/roster.js';
import { importRoster } from '../../../src/roster/import-roster.js';
import { org, person, source } from '../../helpers/roster-plans.js';

t.test('an applied import is in each covered school\'s audit trail with its counts; a dry run or no change is not', async (t) => {
  const clock = new ManualClock(Date.parse('2027-01-10T08:00:00Z'));
  const store = await openStore('sqlite::memory:', clock);
  const audit = new AuditLog({ store, clock, log: { info: () => {}, warn: () => {} } });
  t.teardown(async () => { await audit.close(); await store.close(); });
  const files = (n: number) => async () => source({
    orgs: [org('sch1', 'Hill'), org('sch2', 'Dale')],
    users: [...Array.from({ length: n }, (_, i) => person(`h${i}`, `hill${i}.k`, 'sch1')), person('d1', 'dale1.k', 'sch2')],
  });
  const options = { clock, settings: rosterSettings({}), by: 'cli:test', lockWaitMs: 0, allowMassRemoval: true, audit };
  const first = await importRoster(store, 'x', { ...options, read: files(3) });
  await importRoster(store, 'x', { ...options, read: files(3) }); // nothing changes: no run, no event
  await importRoster(store, 'x', { ...options, read: files(2), dryRun: true });
  const last = await importRoster(store, 'x', { ...options, read: files(2), actor: { id: 'u100000000000009', name: 'Ada Admin' }, fileName: 'hill.zip', massRemovalConfirmed: true, auditDetail: { via: 'api' } });
  await audit.flush();
  const hill = (await store.findOrganisation('hill'))!;
  const dale = (await store.findOrganisation('dale'))!;
  const events = await store.queryAudit({ organisationId: hill.id, limit: 10 });
  t.same(events.map((e) => [e.kind, e.action, e.actorId, e.actorName]), [
    ['import', 'roster.applied', 'u100000000000009', 'Ada Admin'],
    ['import', 'roster.applied', 'operator', 'operator'],
  ], 'two applied imports, the first by the operator (the command line), the last by the member of staff given');
  t.same(events[1]!.detail, { run: first.run!.id, format: first.run!.format, 'organisations.added': '2', 'users.added': '4' }, 'the run and its counts');
  t.equal(events[1]!.at, first.run!.at, 'at the run\'s time');
  t.same(events[0]!.detail, { run: last.run!.id, file: 'hill.zip', format: last.run!.format, 'users.leaving': '1', mass_removal: 'allowed', via: 'api' },
    'the file as given, the mass removal confirmed, and the detail given (through the school API)');
  t.equal((await store.queryAudit({ organisationId: dale.id, limit: 10 })).length, 2, 'and in the other school it covers');
});
