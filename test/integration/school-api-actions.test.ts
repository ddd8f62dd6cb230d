import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import type { Store } from '../../adapters/store.js';
import { takeStoreLock } from '../../src/accounts/store-lock.js';
import { issueBadge } from '../../src/badges/badges.js';
import { SchoolAppRequests } from '../../src/clients/school-app-requests.js';
import { systemClock } from '../../src/clock.js';
import { ROSTER_LOCK } from '../../src/roster/roster-lock.js';
import { UPLOAD_BYTES } from '../../src/school/roster-uploads.js';
import { FAILURE_CAP, lockOut } from '../helpers/class-console.js';
import { writeConfig } from '../helpers/config-file.js';
import { tryHelpCode, useDemoApp } from '../helpers/help-codes.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { tempDir } from '../helpers/roster-files.js';
import { eventually, pupilSignsIn } from '../helpers/school-audit.js';
import { putConsoleSchool } from '../helpers/school-console.js';
import { schoolExportZip } from '../helpers/school-roster.js';
import { putSecondFactor, putStaffToken } from '../helpers/staff-tokens.js';

/**
 * The school API's actions (docs/school-console.md → The school API): help codes, credentials (new ones,
 * unlocking, voiding a badge), staff roles,
 * the school's apps and roster imports, each through the services the console's pages call, with their rules
 * (a teacher their classes' pupils; the admin-only routes a 404 for a teacher; 404 for anything of another
 * school), JSON errors, and every change in the audit trail with the token's holder as actor and `via: api`.
 * On SQLite and on Redis.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const API = '/school/api/schools';

/** Lanyard's configuration: the demo; a pupil locked out after FAILURE_CAP wrong tries on new devices; Quiz Time, a configuration-file app offered to schools. */
const config = () => writeConfig((c) => {
  c.login_throttling = { ...c.login_throttling, new_device_failure_cap: FAILURE_CAP };
  c.clients.push({ client_id: 'quiz', name: 'Quiz Time', secrets: ['quiz-secret-value'], redirect_uris: ['http://localhost:8080/callback'], default_scopes: ['openid', 'user:read'] });
});

function caller(url: string) {
  return async (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
    const json = body !== undefined && !(body instanceof Uint8Array) && !(body instanceof ReadableStream);
    const r = await fetch(`${url}${API}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : body as RequestInit['body'], duplex: 'half' }),
    } as RequestInit);
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : undefined };
  };
}

/** The school's audit events of `action` through the API (the trail is written off the request's path). */
async function apiEvents(store: Store, organisationId: string, action: string, count = 1) {
  const read = async () => (await store.queryAudit({ organisationId, limit: 200 })).filter((e) => e.action === action);
  return eventually(read, (events) => events.length >= count);
}

async function schoolApiActions(t: Test, lanyard: Lanyard, o: { lockTest: boolean }): Promise<void> {
  const { store, url } = lanyard;
  const call = caller(url);
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');
  await useDemoApp(store, north.organisation.id);
  await putSecondFactor(store, north.admin.user.id);
  await putSecondFactor(store, south.admin.user.id);
  const admin = (await putStaffToken(store, north.admin.user.id)).token;
  const teacher = (await putStaffToken(store, north.teacher.user.id)).token;
  const southAdmin = (await putStaffToken(store, south.admin.user.id)).token;
  const org = north.organisation.id;
  const [a1, a2, a3] = north.taught.pupils;
  const [b1] = north.other.pupils;
  const asActor = (who: { user: { id: string } }) => ({ actorId: who.user.id, detail: { via: 'api' } });

  t.test('help codes: a teacher gives one to their pupil (once), lists and cancels it; never another class’s or school’s', async (t) => {
    const given = await call('POST', `/north/people/${a1!.id}/help-code`, teacher);
    t.equal(given.status, 201);
    t.match(given.json, { user_id: a1!.id, code: /^\d{6}$/, expires_at: String });
    t.ok(Date.parse(given.json.expires_at) > Date.now(), 'until later');
    t.equal((await call('POST', `/north/people/${b1!.id}/help-code`, teacher)).status, 404, 'not a pupil of theirs');
    t.equal((await call('POST', `/north/people/${a1!.id}/help-code`, southAdmin)).status, 404, 'another school’s admin');

    const listed = await call('GET', '/north/help-codes', teacher);
    t.equal(listed.status, 200);
    t.same(listed.json, [{
      user_id: a1!.id, username: a1!.username, given_name: a1!.givenName, family_name: a1!.familyName, issued_by: 'Tess Teacher', expires_at: given.json.expires_at,
    }], 'the code’s pupil, who gave it, until when: never the code');
    t.same((await call('GET', `/north/help-codes?class_id=${north.taught.class.sourcedId}`, admin)).json.map((c: Json) => c.user_id), [a1!.id], 'of a class');
    t.equal((await call('GET', `/north/help-codes?class_id=${north.other.class.id}`, teacher)).status, 404, 'a class not theirs');
    t.equal((await call('GET', '/north/help-codes', southAdmin)).status, 404);

    t.equal((await tryHelpCode(url, 'north', a1!.username, given.json.code)).status, 303, 'the pupil signs in with it');
    t.equal((await tryHelpCode(url, 'north', a1!.username, given.json.code)).status, 401, 'once');
    const again = await call('POST', `/north/people/${a2!.id}/help-code`, admin);
    t.equal((await call('DELETE', `/north/people/${a2!.id}/help-code`, teacher)).status, 204, 'cancelled');
    t.equal((await tryHelpCode(url, 'north', a2!.username, again.json.code)).status, 401, 'a cancelled code fails');
    const none = await call('DELETE', `/north/people/${a2!.id}/help-code`, teacher);
    t.equal(none.status, 404);
    t.match(none.json, { error: 'not_found', error_description: /has no help code/ });

    await store.setSuspended(a3!.id, new Date().toISOString());
    const suspended = await call('POST', `/north/people/${a3!.id}/help-code`, admin);
    t.equal(suspended.status, 400, 'refused for someone who cannot sign in');
    t.match(suspended.json.error_description, /cannot sign in at the moment/);
    await store.setSuspended(a3!.id, undefined);

    t.match(await apiEvents(store, org, 'help_code.issued', 2), [
      { subjectId: a2!.id, ...asActor(north.admin) }, { subjectId: a1!.id, ...asActor(north.teacher), detail: { expiresAt: given.json.expires_at } },
    ]);
    t.match(await apiEvents(store, org, 'help_code.cancelled'), [{ subjectId: a2!.id, ...asActor(north.teacher) }]);
  });

  t.test('credentials: a new emoji password or password, answered once; admins only, never oneself', async (t) => {
    const before = await store.getCredential(a1!.id, 'emoji');
    const emoji = await call('POST', `/north/people/${a1!.id}/emoji`, admin);
    t.equal(emoji.status, 200);
    t.equal(emoji.json.user_id, a1!.id);
    t.equal(emoji.json.emoji.length, 6, 'six pictures');
    t.not(await store.getCredential(a1!.id, 'emoji'), before, 'a new one is stored');
    t.equal((await call('POST', `/north/people/${a1!.id}/emoji`, southAdmin)).status, 404, 'another school’s admin');
    t.equal((await call('POST', `/north/people/${a3!.id}/emoji`, teacher)).status, 200, 'a teacher, for their pupil');
    t.equal((await call('POST', `/north/people/${b1!.id}/emoji`, teacher)).status, 404, 'not for another class’s');
    t.equal((await call('POST', `/north/people/${a3!.id}/password`, teacher, { generate: true })).status, 404, 'a password is an admin’s to give');

    const made = await call('POST', `/north/people/${a2!.id}/password`, admin, { generate: true });
    t.equal(made.status, 200);
    t.match(made.json, { user_id: a2!.id, password: /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/ });
    t.same(await pupilSignsIn(url, 'north', a2!.username, made.json.password), { failed: 401, signedIn: 303 }, 'the pupil signs in with it');
    t.equal((await call('POST', `/north/people/${a2!.id}/password`, admin, { password: 'chosen-password-7' })).status, 204, 'one sent is set');
    t.same(await pupilSignsIn(url, 'north', a2!.username, 'chosen-password-7'), { failed: 401, signedIn: 303 });

    const short = await call('POST', `/north/people/${a2!.id}/password`, admin, { password: 'short' });
    t.equal(short.status, 400);
    t.same(short.json.fields, [{ path: '/password', message: 'The password is 8 to 1024 characters.' }], 'the policy, by field');
    const neither = await call('POST', `/north/people/${a2!.id}/password`, admin, {});
    t.equal(neither.status, 400, 'generate or a password');
    t.equal(neither.json.error, 'invalid_request');
    t.equal((await call('POST', `/north/people/${a2!.id}/password`, admin, { generate: true, password: 'chosen-password-8' })).status, 400, 'not both');
    const own = await call('POST', `/north/people/${north.admin.user.id}/password`, admin, { generate: true });
    t.equal(own.status, 400, 'never one’s own');
    t.match(own.json.error_description, /your own password on your Account page/);

    t.match(await apiEvents(store, org, 'emoji.reset', 2), [
      { kind: 'credential', subjectId: a3!.id, ...asActor(north.teacher) }, { kind: 'credential', subjectId: a1!.id, ...asActor(north.admin) },
    ]);
    t.match(await apiEvents(store, org, 'password.reset'), [{ subjectId: a2!.id, ...asActor(north.admin) }]);
    t.match(await apiEvents(store, org, 'password.set'), [{ subjectId: a2!.id, ...asActor(north.admin) }]);
  });

  t.test('unlock and void a badge: a teacher for their pupil, as the class page does', async (t) => {
    const pupils = async () => (await call('GET', `/north/classes/${north.taught.class.id}/pupils`, teacher)).json.find((p: Json) => p.id === a3!.id);
    t.equal((await lockOut(url, a3!.username, 'north')).at(-1), 429, 'locked out on new devices');
    t.same((await pupils()).locked_methods, ['emoji']);
    t.equal((await call('POST', `/north/people/${a3!.id}/unlock`, teacher)).status, 204);
    t.same((await pupils()).locked_methods, [], 'unlocked');
    await issueBadge(store, a3!);
    t.ok((await pupils()).methods.includes('badge'));
    t.equal((await call('POST', `/north/people/${a3!.id}/badge/void`, teacher)).status, 204);
    t.notOk((await pupils()).methods.includes('badge'), 'voided');
    t.equal((await call('POST', `/north/people/${a3!.id}/badge/void`, teacher)).status, 204, 'nothing to void is no error');
    for (const path of ['unlock', 'badge/void']) {
      t.equal((await call('POST', `/north/people/${b1!.id}/${path}`, teacher)).status, 404, `${path}: not another class’s pupil`);
      t.equal((await call('POST', `/north/people/${a3!.id}/${path}`, southAdmin)).status, 404, `${path}: nor another school’s admin`);
    }
    t.match(await apiEvents(store, org, 'account.unlocked'), [{ kind: 'console', subjectId: a3!.id, ...asActor(north.teacher) }]);
    t.match(await apiEvents(store, org, 'badge.voided'), [{ kind: 'credential', subjectId: a3!.id, ...asActor(north.teacher) }]);
  });

  t.test('staff: list, grant by username, revoke; the last admin keeps theirs; admins only', async (t) => {
    const staff = await call('GET', '/north/staff', admin);
    t.equal(staff.status, 200);
    t.match(staff.json, [
      { user_id: north.admin.user.id, username: 'north-admin', two_step: true, roles: [{ role: 'admin', source: 'operator', granted_at: String }] },
      { user_id: north.teacher.user.id, two_step: false, roles: [{ role: 'teacher', source: 'classes', class_ids: [north.taught.class.id] }] },
    ]);
    const granted = await call('POST', '/north/staff', admin, { username: b1!.username, role: 'teacher' });
    t.equal(granted.status, 201);
    t.match(granted.json, { user_id: b1!.id, roles: [{ role: 'teacher', source: 'console', granted_by: north.admin.user.id }] });
    t.equal((await call('POST', '/north/staff', admin, { username: b1!.username, role: 'teacher' })).status, 200, 'had it already');
    const nobody = await call('POST', '/north/staff', admin, { username: 'south-a1', role: 'teacher' });
    t.equal(nobody.status, 400, 'someone of another school');
    t.same(nobody.json.fields, [{ path: '/username', message: 'Nobody of this school has the username “south-a1”.' }]);
    t.same((await call('POST', '/north/staff', admin, { username: b1!.username, role: 'wizard' })).json.fields.map((f: Json) => f.path), ['/role']);

    t.equal((await call('DELETE', `/north/staff/${b1!.id}/teacher`, admin)).status, 204, 'withdrawn');
    t.equal((await call('DELETE', `/north/staff/${b1!.id}/teacher`, admin)).status, 404, 'no such grant any more');
    const last = await call('DELETE', `/north/staff/${north.admin.user.id}/admin`, admin);
    t.equal(last.status, 400, 'the only admin keeps theirs');
    t.match(last.json.error_description, /only admin who can sign in/);
    t.equal((await call('DELETE', `/north/staff/${south.admin.user.id}/admin`, admin)).status, 404, 'someone of another school');
    for (const [method, path, body] of [['GET', '/north/staff'], ['POST', '/north/staff', { username: b1!.username, role: 'teacher' }], ['DELETE', `/north/staff/${b1!.id}/teacher`]] as const) {
      t.equal((await call(method, path, teacher, body)).status, 404, `a teacher: ${method} ${path}`);
      t.equal((await call(method, path, southAdmin, body)).status, 404, `another school’s admin: ${method} ${path}`);
    }
    t.match(await apiEvents(store, org, 'staff.granted'), [{ subjectId: b1!.id, ...asActor(north.admin), detail: { role: 'teacher', via: 'api' } }]);
    t.match(await apiEvents(store, org, 'staff.revoked'), [{ subjectId: b1!.id, ...asActor(north.admin), detail: { role: 'teacher', via: 'api' } }]);
  });

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
    t.match(await apiEvents(store, org, 'app.moved'), [{ clientId: 'quiz', ...asActor(north.admin), detail: { app: 'Quiz Time', place: '1', via: 'api' } }]);
    t.match(await apiEvents(store, org, 'app.request_declined'), [{ clientId: 'spell-it', detail: { reason: 'We have one.', via: 'api' } }]);
    for (const action of ['app.connected', 'app.user_types_changed', 'app.disconnected', 'app.request_approved']) {
      t.match(await apiEvents(store, org, action), [asActor(north.admin)], action);
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
    t.match(await apiEvents(store, org, 'roster.applied'), [{ kind: 'import', ...asActor(north.admin), detail: { run: applied.json.run_id, 'users.added': '1', mass_removal: 'allowed', via: 'api' } }]);
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
  await schoolApiActions(t, await startLanyard(t, { env: { LANYARD_CONFIG: config() } }), { lockTest: true });
});

t.test('on Redis', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await schoolApiActions(t, await startLanyard(t, { env: { LANYARD_CONFIG: config(), ...redisStoreEnv(redis.url, 'school-api-actions') } }), { lockTest: false });
});
