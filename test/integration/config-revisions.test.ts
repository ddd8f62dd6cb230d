import t from 'tap';
import { verifyCredential } from '../../src/accounts/credential-hasher.js';
import { type Backend, type Instance, sharedStore } from '../helpers/instances.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { writeConfig } from '../helpers/config-file.js';
import { startRedis } from '../helpers/redis-server.js';

/**
 * Several instances on one store with different configuration files (docs/operations.md → Rolling
 * configuration changes): a file's clients never overwrite a newer revision's, nor another running
 * instance's under the same revision number; every instance says so in /readyz, a metric and a warning line.
 */

interface ConfigView {
  revision: number; hash: string; store: { revision: number; hash: string } | null;
  running: { revision: number; hash: string; instances: number }[]; mismatch: boolean; problem?: string;
}

async function readyz(i: Instance): Promise<{ status: number; body: { status: string; config: ConfigView } }> {
  const res = await fetch(`${i.origin}/readyz`);
  return { status: res.status, body: await res.json() as { status: string; config: ConfigView } };
}

async function metric(i: Instance, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const res = await fetch(`${i.origin}/metrics`);
  return sampleValue(parsePrometheusText(await res.text()), name, labels);
}

const events = (i: Instance, event: string) => i.logs.map((l) => JSON.parse(l) as { event?: string; msg: string }).filter((l) => l.event === event);

const callbackOf = async (i: Instance, clientId: string) => (await i.store.findClient(clientId))?.redirectUris;

/** A configuration file with one client, `app`, whose callback is on `host`, at `revision` (none: left out). */
const appConfig = (host: string, revision?: number, teacherPassword = 'teacher-pass') => writeConfig((c) => {
  if (revision !== undefined) c.revision = revision;
  c.clients = [{ client_id: 'app', name: 'App', secrets: ['app-secret-123'], redirect_uris: [`https://${host}/callback`] }];
  c.organisations = c.organisations?.map((o) => ({
    ...o, apps: undefined, users: o.users?.map((u) => (u.username === 'teacher' ? { ...u, password: teacherPassword } : u)),
  }));
});

/** Whether the demo school's teacher's stored password is `password`. */
async function teacherPasswordIs(i: Instance, password: string): Promise<boolean> {
  const org = (await i.store.findOrganisation('demo-school'))!;
  const teacher = (await i.store.findUserByUsername(org.id, 'teacher'))!;
  return verifyCredential((await i.store.getCredential(teacher.id, 'password'))!, password);
}

const redis = startRedis(t);

for (const backend of ['redis', 'sqlite'] as Backend[]) {
  t.test(`${backend}: a second instance with another Demo App port does not rewrite the first's demo client; both report the mismatch`, async (t) => {
    const shared = await sharedStore(t, backend, backend === 'redis' ? { redis: await redis } : {});
    const a = await shared.start(t, { first: true, env: { LANYARD_DEMO_APP: '8380' } });
    t.same(await callbackOf(a, 'demo-app'), ['http://localhost:8380/callback'], 'the first instance wrote its demo client');
    t.equal((await readyz(a)).body.config?.mismatch, false, 'alone: no mismatch');
    t.equal(await metric(a, 'lanyard_config_revision_mismatch'), 0, 'alone: the metric says 0');

    const b = await shared.start(t, { env: { LANYARD_DEMO_APP: 'off' } });
    t.same(await callbackOf(b, 'demo-app'), ['http://localhost:8380/callback'], 'the second instance did not overwrite it (same revision number, other contents, run by the first)');
    const [ra, rb] = [await readyz(a), await readyz(b)];
    t.equal(ra.status, 200, 'the first stays ready');
    t.equal(rb.status, 200, 'the second is ready: it serves the store\'s clients');
    for (const [name, r] of [['first', ra], ['second', rb]] as const) {
      t.equal(r.body.config?.mismatch, true, `${name}: /readyz reports the mismatch`);
      t.equal(r.body.config?.running.length, 2, `${name}: two revisions running`);
      t.equal(r.body.config?.store?.hash, ra.body.config?.hash, `${name}: the store holds the first's`);
    }
    t.match(rb.body.config?.problem, /differ under one revision number.*bump "revision"/, 'the second says what to do');
    t.notSame(rb.body.config?.hash, ra.body.config?.hash, 'the two files hash differently');
    t.equal(await metric(a, 'lanyard_config_revision_mismatch'), 1, 'the first\'s metric');
    t.equal(await metric(b, 'lanyard_config_revision_mismatch'), 1, 'the second\'s metric');
    t.equal(await metric(b, 'lanyard_config_revisions_running'), 2, 'two revisions running');
    t.equal(await metric(b, 'lanyard_config_revision_info', { revision: '0', hash: rb.body.config?.hash ?? '' }), 1, 'which revision the second runs');
    t.match(events(b, 'config.revision_mismatch'), [{ msg: /Configuration revisions differ/ }], 'the second logged a warning line');
    t.match(events(b, 'config.revision'), [{ msg: /NOT written/ }], 'and that it did not write its clients');
    await a.configRevision.tick(); // what the first's timer does
    t.equal(events(a, 'config.revision_mismatch').length, 1, 'the first logs a warning line at its next check');

    // The first stops: nobody runs the store's revision any more, so the second's takes over at its next check.
    await a.stop();
    const after = await b.configRevision.tick();
    t.same(await callbackOf(b, 'demo-app'), ['http://localhost:8080/callback'], 'the second\'s demo client once the first is gone');
    t.equal(after.mismatch, false, 'then all agree');
    t.match(events(b, 'config.revision_agreed'), [{ msg: /every instance runs configuration revision 0/ }], 'and it says so');
  });
}

t.test('redis: a newer revision overwrites; an older one, started after it, does not write back', async (t) => {
  const shared = await sharedStore(t, 'redis', { redis: await redis });
  const one = await shared.start(t, { first: true, env: { LANYARD_CONFIG: appConfig('one.example', 1) } });
  t.same(await callbackOf(one, 'app'), ['https://one.example/callback'], 'revision 1 written');
  const two = await shared.start(t, { env: { LANYARD_CONFIG: appConfig('two.example', 2, 'a-new-teacher-pass') } });
  t.same(await callbackOf(two, 'app'), ['https://two.example/callback'], 'revision 2, newer, overwrote it');
  t.ok(await teacherPasswordIs(two, 'a-new-teacher-pass'), 'and its users: the teacher’s new password');
  t.match(events(two, 'config.revision'), [{ msg: /newer than the store's, its clients written/ }]);
  // A rolling deploy restarts an old instance (or one still has the old file): it must not flip the store back.
  const old = await shared.start(t, { env: { LANYARD_CONFIG: appConfig('one.example', 1) } });
  t.same(await callbackOf(old, 'app'), ['https://two.example/callback'], 'revision 1, older, did not write');
  t.ok(await teacherPasswordIs(old, 'a-new-teacher-pass'), 'nor put the teacher’s old password back');
  const r = await readyz(old);
  t.equal(r.status, 200);
  t.match(r.body.config, { revision: 1, store: { revision: 2 }, mismatch: true, problem: /older than the store's/ }, '/readyz says why');
  t.same(r.body.config.running.map((x) => [x.revision, x.instances]), [[2, 1], [1, 2]], 'newest first, with how many run each');
  await one.stop();
  await old.stop();
  t.match((await readyz(two)).body.config, { mismatch: false, running: [{ revision: 2, instances: 1 }] }, 'the old ones gone: agreement');
  t.same(await callbackOf(two, 'app'), ['https://two.example/callback'], 'and the newer clients stayed');
});

t.test('sqlite: the same file restarted with changes, the old instance stopped, writes them at once', async (t) => {
  const shared = await sharedStore(t, 'sqlite');
  const first = await shared.start(t, { first: true, env: { LANYARD_CONFIG: appConfig('one.example') } });
  await first.stop();
  const again = await shared.start(t, { env: { LANYARD_CONFIG: appConfig('edited.example') } });
  t.same(await callbackOf(again, 'app'), ['https://edited.example/callback'], 'edited file written: nobody runs the old one');
  t.match(events(again, 'config.revision'), [{ msg: /no instance runs the store's any more: its clients written/ }]);
  t.equal((await readyz(again)).body.config.mismatch, false);
});

t.test('redis: /readyz answers a few hundred malformed requests without a 5xx', async (t) => {
  const shared = await sharedStore(t, 'redis', { redis: await redis });
  const i = await shared.start(t, { first: true });
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];
  const junk = ['%', '%zz', '..%2f', '\u0000', 'é', '"><script>', 'a'.repeat(3000), '?', '#', ';', '%00'];
  let sent = 0;
  const fives: string[] = [];
  for (let n = 0; n < 300; n += 1) {
    const method = methods[n % methods.length]!;
    const bit = junk[n % junk.length]!;
    const path = n % 3 === 0 ? `/readyz?${encodeURIComponent(bit)}=${bit.length}` : n % 3 === 1 ? `/readyz/${encodeURIComponent(bit)}` : `/readyz?x=${encodeURIComponent(bit)}`;
    const headers: Record<string, string> = { accept: n % 2 ? 'text/html' : '*/*' };
    if (n % 5 === 0) headers['content-type'] = 'application/json';
    const body = method === 'GET' || method === 'HEAD' ? undefined : (n % 4 ? `{"config":${JSON.stringify(bit)}` : bit);
    const res = await fetch(`${i.origin}${path}`, { method, headers, body });
    await res.arrayBuffer();
    sent += 1;
    if (res.status >= 500) fives.push(`${method} ${path.slice(0, 60)} → ${res.status}`);
  }
  t.equal(sent, 300, 'every request answered');
  t.same(fives, [], 'no 5xx');
});
