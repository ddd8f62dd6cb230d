import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { takeStoreLock } from '../../src/accounts/store-lock.js';
import { SchoolAppRequests } from '../../src/clients/school-app-requests.js';
import { systemClock } from '../../src/clock.js';
import { ROSTER_LOCK } from '../../src/roster/roster-lock.js';
import { UPLOAD_BYTES } from '../../src/school/roster-uploads.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { tempDir } from '../helpers/roster-files.js';
import { apiSchools, byApi, schoolApiConfig } from '../helpers/school-api.js';
import { schoolExportZip } from '../helpers/school-roster.js';

/**
 * The school API's apps and roster (docs/school-console.md → The school API): the school's apps (offered,
 * connected with who and where, disconnected; an app asking approved or declined) and roster imports (a zip or
 * CSV body, a dry run, the mass-removal guard, the roster lock, the size limit, the history), through the
 * services the console's pages call, for school admins only (404 for a teacher and for another school), every
 * change in the audit trail with `via: api`. On SQLite and on Redis.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

async function schoolActions(t: Test, lanyard: Lanyard, o: { lockTest: boolean }): Promise<void> {
  const { store } = lanyard;
  const { north, south, admin, teacher, southAdmin, call, events } = await apiSchools(lanyard);
  const org = north.organisation.id;

  t.test('apps: offered, connect with who and where, disconnect; approve and decline an app asking; admins only', async (t) => {
    const first = await call('GET', '/north/apps', admin);
    t.equal(first.status, 200);
    t.same(first.json.connections.map((a: Json) => [a.client_id, a.source, a.place]), [['demo-app', 'operator', 1]]);
    t.match(first.json.offered, [{ client_id: 'quiz', name: 'Quiz Time' }]);
    t.same(first.json.offered[0].receives.map((r: Json) => r.scope), ['openid', 'user:read'], 'what it receives, by scope');
    t.match(first.json.offered[0].receives[0].claims.slice(0, 4), ['sub', 'given_name', 'family_name', 'type'], 'and claim');
    const connected = await call('POST', '/north/apps/quiz', admin, {});
    t.equal(connected.status, 200);
    t.match(connected.json, { client_id: 'quiz', source: 'school', place: 2, user_types: null, changeable: true });
    const changed = await call('POST', '/north/apps/quiz', admin, { user_types: ['student'], position: 1 });
    t.match(changed.json, { client_id: 'quiz', place: 1, user_types: ['student'] });
    t.same((await store.listConnections(org)).map((c) => c.clientId), ['quiz', 'demo-app'], 'first on the dashboard');
    const badTypes = await call('POST', '/north/apps/quiz', admin, { user_types: ['Year 4'] });
    t.equal(badTypes.status, 400);
    t.same(badTypes.json.fields.map((f: Json) => f.path), ['/user_types/0', '/user_types', '/user_types'], 'the refused type named');
    t.equal((await call('POST', '/north/apps/nothing-such', admin, {})).status, 404, 'an app not offered');
    t.equal((await call('DELETE', '/north/apps/quiz', admin)).status, 204);
    t.equal((await call('DELETE', '/north/apps/quiz', admin)).status, 404, 'no longer the school’s');

    // A live developer app asks the school, as the developer area asks (src/clients/school-app-requests.ts).
    const quiz = (await store.findClient('quiz'))!;
    const requests = new SchoolAppRequests({ store, clock: systemClock });
    for (const [clientId, name] of [['maths-mania', 'Maths Mania'], ['spell-it', 'Spell It']] as const) {
      await store.putClient({ ...quiz, clientId, name, source: 'developer', status: 'live' });
      await requests.ask((await store.findClient(clientId))!, 'north', { id: 'dev-1', name: 'Dee Veloper' }, `Please use ${name}.`);
    }
    t.match((await call('GET', '/north/apps', admin)).json.requests, [
      { client_id: 'maths-mania', status: 'pending', note: 'Please use Maths Mania.', requested_at: String }, { client_id: 'spell-it', status: 'pending' },
    ]);
    const approved = await call('POST', '/north/apps/maths-mania/approve', admin);
    t.equal(approved.status, 200);
    t.match(approved.json, { client_id: 'maths-mania', source: 'school', user_types: null });
    t.equal((await call('POST', '/north/apps/maths-mania/approve', admin)).status, 409, 'no longer asking');
    const noReason = await call('POST', '/north/apps/spell-it/decline', admin, { reason: ' ' });
    t.equal(noReason.status, 400);
    t.same(noReason.json.fields.map((f: Json) => f.path), ['/reason']);
    t.equal((await call('POST', '/north/apps/spell-it/decline', admin, { reason: 'We have one.' })).status, 204);
    t.match((await call('GET', '/north/apps', admin)).json.requests, [{ client_id: 'spell-it', status: 'declined', answer: 'We have one.', answered_at: String }]);

    for (const [method, path, body] of [['GET', '/north/apps'], ['POST', '/north/apps/quiz', {}], ['DELETE', '/north/apps/maths-mania'], ['POST', '/north/apps/spell-it/approve']] as const) {
      t.equal((await call(method, path, teacher, body)).status, 404, `a teacher: ${method} ${path}`);
      t.equal((await call(method, path, southAdmin, body)).status, 404, `another school’s admin: ${method} ${path}`);
    }
    t.same((await store.listConnections(south.organisation.id)).length, 0, 'nothing changed at the other school');
    t.match(await events('app.moved'), [{ clientId: 'quiz', ...byApi(north.admin), detail: { app: 'Quiz Time', place: '1', via: 'api' } }]);
    t.match(await events('app.request_declined'), [{ clientId: 'spell-it', detail: { reason: 'We have one.', via: 'api' } }]);
    for (const action of ['app.connected', 'app.user_types_changed', 'app.disconnected', 'app.request_approved']) {
      t.match(await events(action), [byApi(north.admin)], action);
    }
  });

  t.test('roster: a dry run plans, an import applies with the page’s guard, the history and the audit trail have it', async (t) => {
    const dir = tempDir(t);
    const sam = north.other.pupils[3]!;
    const zip = readFileSync(await schoolExportZip(dir, 'north', north, { drop: [sam.username], add: [{ username: 'north-new1', given: 'Nia', family: 'Newcomer', klass: 'a' }] }));
    const post = (query: string, body: Uint8Array | string, type = 'application/zip', token = admin) =>
      call('POST', `/north/roster${query}`, token, body instanceof Uint8Array ? body : new TextEncoder().encode(body), { 'content-type': type });

    const dry = await post('?dry_run=true', zip);
    t.equal(dry.status, 200);
    t.match(dry.json, { applied: false, message: /dry run/, plan: { format: 'oneroster-1.1', organisations: ['north'], changes: true } });
    t.same(dry.json.plan.kinds.users.added, [{ organisation: 'north', name: 'north-new1' }]);
    t.same(dry.json.plan.kinds.users.leaving, [{ organisation: 'north', name: sam.username }]);
    t.equal(dry.json.plan.mass_removal.length, 1, 'the guard would trip');
    t.equal(await store.findUserByUsername(org, 'north-new1'), undefined, 'nothing written');

    t.equal((await post('?dry_run=true', zip, 'application/zip', teacher)).status, 404, 'a teacher');
    t.equal((await post('?dry_run=true', zip, 'application/zip', southAdmin)).status, 404, 'another school’s admin');
    t.equal((await call('GET', '/north/roster/imports', teacher)).status, 404, 'a teacher: the history');
    const guarded = await post('', zip);
    t.equal(guarded.status, 422, 'the guard, as on the page');
    t.match(guarded.json, { applied: false, refused: 'mass_removal', message: /allow_mass_removal=true/ });
    t.equal(await store.findUserByUsername(org, 'north-new1'), undefined, 'nothing written');
    if (o.lockTest) {
      const token = await takeStoreLock(store, ROSTER_LOCK, { ttlMs: 60_000, waitMs: 0 });
      const busy = await post('?allow_mass_removal=true', zip);
      await store.unlock(ROSTER_LOCK, token);
      t.equal(busy.status, 409, 'another import at work');
      t.equal(busy.json.error, 'roster_busy');
    }
    const applied = await post('?allow_mass_removal=true', zip);
    t.equal(applied.status, 200);
    t.match(applied.json, { applied: true, run_id: String, message: /The roster was applied/ });
    t.ok(await store.findUserByUsername(org, 'north-new1'), 'the newcomer is there');
    const history = await call('GET', '/north/roster/imports', admin);
    t.equal(history.status, 200);
    t.match(history.json, [{ id: applied.json.run_id, by: 'api:north-admin', format: 'oneroster-1.1', organisations: ['north'], counts: { users: { added: 1, leaving: 1 } } }]);
    t.same((await call('GET', '/north/roster/imports?limit=0', admin)).json.fields.map((f: Json) => f.path), ['/limit']);
    t.match(await events('roster.applied'), [{ kind: 'import', ...byApi(north.admin), detail: { run: applied.json.run_id, 'users.added': '1', mass_removal: 'allowed', via: 'api' } }]);
    const again = await post('', zip);
    t.match(again.json, { applied: false, message: /already holds this roster/ }, 'the same export again changes nothing');

    const csv = await post('?dry_run=true', 'username,given_name,family_name,type\nnorth-new2,Ned,Newman,student\n', 'text/csv; charset=utf-8');
    t.equal(csv.status, 200, 'the one-file CSV');
    t.equal(csv.json.plan.format, 'one-file');
    const twice = 'username,given_name,family_name\nnorth-new3,Ned,Newman\nnorth-new3,Nat,Newman\n';
    const broken = await post('?dry_run=true', twice, 'text/csv');
    t.ok(broken.json.plan.errors.some((e: Json) => e.file === 'roster.csv' && e.line === 3 && e.message), 'errors with file, line and reason');
    const refused = await post('', twice, 'text/csv');
    t.equal(refused.status, 422);
    t.equal(refused.json.refused, 'plan_errors', 'a plan with errors is not applied');
    const notRoster = await post('', 'not a zip at all');
    t.equal(notRoster.status, 400);
    t.equal(notRoster.json.error, 'roster_unreadable');
    t.equal((await post('', '{}', 'application/json')).status, 415, 'not an export');
    t.equal((await post('', new Uint8Array(0))).status, 400, 'an empty body');
    // Streamed without a length: cut off past the limit.
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (sent > UPLOAD_BYTES) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const huge = await call('POST', '/north/roster', admin, stream, { 'content-type': 'application/zip' });
    t.equal(huge.status, 413, 'larger than the limit');
  });
}

t.test('on SQLite', async (t) => {
  await schoolActions(t, await startLanyard(t, { env: { LANYARD_CONFIG: schoolApiConfig() } }), { lockTest: true });
});

t.test('on Redis', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await schoolActions(t, await startLanyard(t, { env: { LANYARD_CONFIG: schoolApiConfig(), ...redisStoreEnv(redis.url, 'school-api-school') } }), { lockTest: false });
});
