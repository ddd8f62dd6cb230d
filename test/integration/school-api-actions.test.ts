import t, { type Test } from 'tap';
import { issueBadge } from '../../src/badges/badges.js';
import { lockOut } from '../helpers/class-console.js';
import { tryHelpCode } from '../helpers/help-codes.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { pupilSignsIn } from '../helpers/school-audit.js';
import { apiSchools, byApi, schoolApiConfig } from '../helpers/school-api.js';

/**
 * The school API's actions on people (docs/school-console.md → The school API): help codes, credentials (new
 * ones, unlocking, voiding a badge) and staff roles, each through the services the console's pages call, with
 * their rules (a teacher their classes' pupils; the admin-only routes a 404 for a teacher; 404 for anything of
 * another school), JSON errors, and every change in the audit trail with the token's holder as actor and
 * `via: api`. On SQLite and on Redis.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

async function peopleActions(t: Test, lanyard: Lanyard): Promise<void> {
  const { store, url } = lanyard;
  const { north, south, admin, teacher, southAdmin, call, events } = await apiSchools(lanyard);
  const [a1, a2, a3] = north.taught.pupils;
  const [b1] = north.other.pupils;

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

    t.match(await events('help_code.issued'), [
      { subjectId: a2!.id, ...byApi(north.admin) }, { subjectId: a1!.id, ...byApi(north.teacher), detail: { expiresAt: given.json.expires_at } },
    ]);
    t.match(await events('help_code.cancelled'), [{ subjectId: a2!.id, ...byApi(north.teacher) }]);
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

    t.match(await events('emoji.reset'), [
      { kind: 'credential', subjectId: a3!.id, ...byApi(north.teacher) }, { kind: 'credential', subjectId: a1!.id, ...byApi(north.admin) },
    ]);
    t.match(await events('password.reset'), [{ subjectId: a2!.id, ...byApi(north.admin) }]);
    t.match(await events('password.set'), [{ subjectId: a2!.id, ...byApi(north.admin) }]);
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
    t.match(await events('account.unlocked'), [{ kind: 'console', subjectId: a3!.id, ...byApi(north.teacher) }]);
    t.match(await events('badge.voided'), [{ kind: 'credential', subjectId: a3!.id, ...byApi(north.teacher) }]);
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
    t.match(await events('staff.granted'), [{ subjectId: b1!.id, ...byApi(north.admin), detail: { role: 'teacher', via: 'api' } }]);
    t.match(await events('staff.revoked'), [{ subjectId: b1!.id, ...byApi(north.admin), detail: { role: 'teacher', via: 'api' } }]);
  });
}

t.test('on SQLite', async (t) => {
  await peopleActions(t, await startLanyard(t, { env: { LANYARD_CONFIG: schoolApiConfig() } }));
});

t.test('on Redis', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await peopleActions(t, await startLanyard(t, { env: { LANYARD_CONFIG: schoolApiConfig(), ...redisStoreEnv(redis.url, 'school-api-actions') } }));
});
