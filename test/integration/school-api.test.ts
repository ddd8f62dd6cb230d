import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import t, { type Test } from 'tap';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { routeTable } from '../helpers/route-table.js';
import { DAYS, eventually, givePassword, MANY, pupilSignsIn, seedTrail } from '../helpers/school-audit.js';
import { grantRole, putConsoleSchool, putStaffUser } from '../helpers/school-console.js';
import { putSecondFactor, putStaffToken } from '../helpers/staff-tokens.js';

/**
 * The school API (docs/school-console.md → The school API): staff API tokens (valid; expired, revoked, or whose
 * holder is no longer staff → 401), the console's reads and actions as JSON with the same rules (a teacher their
 * classes; 404 for anything of another school), every change in the audit trail with the token's holder as
 * actor, and an OpenAPI 3.1 document generated from the route schemas that lists every route.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const API = '/school/api';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function caller(url: string) {
  return async (method: string, path: string, token: string | null, headers: Record<string, string> = {}) => {
    const r = await fetch(`${url}${path}`, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
    const text = await r.text();
    return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
  };
}

async function schoolApi(t: Test, lanyard: Lanyard): Promise<void> {
  const { store, url } = lanyard;
  const call = caller(url);
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');
  await seedTrail(store, north, south);
  // School admins must have two-step sign-in on for their tokens to work (docs/school-console.md → Signing in and your account).
  await putSecondFactor(store, north.admin.user.id);
  await putSecondFactor(store, south.admin.user.id);
  const admin = (await putStaffToken(store, north.admin.user.id)).token;
  const teacher = (await putStaffToken(store, north.teacher.user.id)).token;
  const southAdmin = (await putStaffToken(store, south.admin.user.id)).token;
  const [a1, a2] = north.taught.pupils;
  const [b1] = north.other.pupils;

  t.test('tokens: a valid one works; expired, revoked, malformed, or its holder no longer staff: 401', async (t) => {
    const ok = await call('GET', `${API}/schools`, admin);
    t.equal(ok.status, 200);
    t.same(ok.json, [{ id: north.organisation.id, slug: 'north', name: 'School north', roles: ['admin'] }]);
    t.equal(ok.headers.get('cache-control'), 'no-store');
    t.same((await call('GET', `${API}/schools`, teacher)).json.map((s: Json) => s.roles), [['teacher']]);

    const none = await call('GET', `${API}/schools`, null);
    t.equal(none.status, 401);
    t.equal(none.json.error, 'unauthenticated');
    t.equal(none.headers.get('www-authenticate'), 'Bearer realm="lanyard-school"');
    const refused = async (token: string, why: string) => {
      const r = await call('GET', `${API}/schools`, token);
      t.equal(r.status, 401, why);
      t.equal(r.json?.error, 'invalid_token', `${why}: invalid_token`);
      t.match(r.headers.get('www-authenticate'), /error="invalid_token"/);
    };
    await refused((await putStaffToken(store, north.admin.user.id, { expiresAt: new Date(Date.now() - 1000).toISOString() })).token, 'expired');
    const revoked = await putStaffToken(store, north.admin.user.id);
    t.equal((await call('GET', `${API}/schools`, revoked.token)).status, 200, 'before it is revoked');
    await store.deleteStaffApiToken(north.admin.user.id, revoked.id);
    await refused(revoked.token, 'revoked');
    await refused(`${admin.slice(0, -4)}AAAA`, 'a wrong secret');
    await refused('lys_nothing', 'malformed');
    const leaver = await putStaffUser(store, north.organisation, 'north-leaver', 'Lee', 'Leaver', 'admin');
    await grantRole(store, north.organisation.id, leaver.user.id, 'admin');
    const leaverToken = (await putStaffToken(store, leaver.user.id)).token;
    await refused(leaverToken, 'a school admin without two-step sign-in');
    await putSecondFactor(store, leaver.user.id);
    t.equal((await call('GET', `${API}/schools`, leaverToken)).status, 200, 'while staff');
    await store.deleteStaffGrant(north.organisation.id, leaver.user.id, 'admin');
    await refused(leaverToken, 'no longer staff of any school');
    const suspended = await putStaffUser(store, north.organisation, 'north-suspended', 'Sue', 'Spended', 'admin');
    await grantRole(store, north.organisation.id, suspended.user.id, 'admin');
    await putSecondFactor(store, suspended.user.id);
    const suspendedToken = (await putStaffToken(store, suspended.user.id)).token;
    await store.setSuspended(suspended.user.id, new Date().toISOString());
    await refused(suspendedToken, 'its holder suspended');
    const inUrl = await call('GET', `${API}/schools?access_token=${admin}`, null);
    t.equal(inUrl.status, 400, 'never in the URL');
  });

  t.test('classes and pupils: a teacher’s own; 404 for another class or school', async (t) => {
    t.same((await call('GET', `${API}/schools/north/classes`, admin)).json.map((c: Json) => c.title), ['Class A', 'Class B']);
    const mine = await call('GET', `${API}/schools/north/classes`, teacher);
    t.same(mine.json.map((c: Json) => [c.title, c.pupils, c.teachers]), [['Class A', 4, ['Tess Teacher']]]);
    await givePassword(store, a1!);
    const pupils = await call('GET', `${API}/schools/north/classes/${north.taught.class.id}/pupils`, teacher);
    t.equal(pupils.status, 200);
    t.same(pupils.json.map((p: Json) => p.family_name), ['Dubois', 'Jones', 'Li', 'Wróblewski'], 'by family name');
    t.same(pupils.json.find((p: Json) => p.id === a1!.id), {
      id: a1!.id, username: a1!.username, given_name: 'Ada', family_name: 'Jones', methods: ['password'], locked: false, locked_methods: [], suspended: false, last_sign_in: null,
    });
    t.equal((await call('GET', `${API}/schools/north/classes/north-class-a/pupils`, teacher)).status, 200, 'by sourcedId too');
    t.equal((await call('GET', `${API}/schools/north/classes/${north.other.class.id}/pupils`, teacher)).status, 404, 'a class not theirs');
    const other = await call('GET', `${API}/schools/north/classes`, southAdmin);
    t.equal(other.status, 404, 'another school');
    t.same(other.json, { error: 'not_found', error_description: 'There is nothing at this address for you.' });
    t.equal((await call('GET', `${API}/schools/south/classes/${north.taught.class.id}/pupils`, southAdmin)).status, 404, 'a class of another school through one’s own');
  });

  t.test('audit and usage: the page’s filters and paging as JSON; admins of the school only', async (t) => {
    const firstDay = await call('GET', `${API}/schools/north/audit?from=${DAYS.first}&to=${DAYS.first}`, admin);
    t.equal(firstDay.status, 200);
    t.same(firstDay.json.events.map((e: Json) => e.subject_id), [b1!.id, a1!.id], 'newest first, none of the other school');
    t.match(firstDay.json.events[1], { kind: 'sign_in', method: 'emoji', device_kind: 'classroom', client_id: 'app-maths', result: 'success', count: 1 });
    t.equal(firstDay.json.next, null, 'one page');
    const failed = await call('GET', `${API}/schools/north/audit?kind=sign_in_failed&class_id=${north.taught.class.id}&to=${DAYS.third}`, admin);
    t.match(failed.json.events, [{ subject_id: a2!.id, count: 5 }]);
    t.same((await call('GET', `${API}/schools/north/audit?app=app-reading&to=${DAYS.third}`, admin)).json.events.map((e: Json) => e.kind), ['launch', 'sign_in']);
    t.equal((await call('GET', `${API}/schools/north/audit?person=ADA&to=${DAYS.third}`, admin)).json.events.length, 2, 'a name search');
    t.equal((await call('GET', `${API}/schools/north/audit?user_id=${a1!.id}&to=${DAYS.third}`, admin)).json.events.length, 2, 'a person by id');
    let before = '';
    const seen: string[] = [];
    for (let pages = 0; pages < 5; pages += 1) {
      const r = await call('GET', `${API}/schools/north/audit?from=${DAYS.third}&to=${DAYS.third}&kind=credential&limit=40${before}`, admin);
      seen.push(...r.json.events.map((e: Json) => e.id));
      if (!r.json.next) break;
      before = `&before=${r.json.next}`;
    }
    t.equal(seen.length, MANY, 'every event, once, through the pages');
    t.equal(new Set(seen).size, MANY);
    const bad = await call('GET', `${API}/schools/north/audit?from=2025-02-30&limit=0&colour=blue`, admin);
    t.equal(bad.status, 400);
    t.same(bad.json.fields.map((f: Json) => f.path).sort(), ['/colour', '/from', '/limit'], 'each refused parameter named');
    const usage = await call('GET', `${API}/schools/north/usage?from=${DAYS.first}&to=${DAYS.third}`, admin);
    t.equal(usage.status, 200);
    t.same(usage.json.totals, { sign_ins: 2, sign_ins_by_method: { emoji: 1, badge: 1 }, by_app: { 'app-maths': 1, 'app-reading': 2 }, failures: 5 });
    t.same(usage.json.days.map((d: Json) => d.day), [DAYS.first, DAYS.second, DAYS.third], 'every day of the range');
    t.equal((await call('GET', `${API}/schools/north/usage?from=2020-01-01&to=2025-01-01`, admin)).status, 400, 'at most a year');
    for (const path of ['audit', 'usage']) {
      t.equal((await call('GET', `${API}/schools/north/${path}`, teacher)).status, 404, `a teacher: ${path}`);
      t.equal((await call('GET', `${API}/schools/north/${path}`, southAdmin)).status, 404, `another school's admin: ${path}`);
    }
  });

  t.test('people: sign out, suspend and restore, each in the audit trail with the token’s holder as actor', async (t) => {
    t.equal((await call('POST', `${API}/schools/north/people/${a1!.id}/sign-out`, teacher)).status, 204, 'a teacher signs out their pupil');
    t.equal((await call('POST', `${API}/schools/north/people/${b1!.id}/sign-out`, teacher)).status, 404, 'not a pupil of theirs');
    t.equal((await call('POST', `${API}/schools/north/people/${a1!.id}/suspend`, teacher)).status, 404, 'suspending is for admins');
    t.equal((await call('POST', `${API}/schools/north/people/${a1!.id}/suspend`, southAdmin)).status, 404, 'another school’s admin');
    const suspended = await call('POST', `${API}/schools/north/people/${a2!.id}/suspend`, admin, { 'content-type': 'application/json' });
    t.equal(suspended.status, 200);
    t.same(suspended.json, { id: a2!.id, username: a2!.username, given_name: 'Ben', family_name: 'Li', suspended: true });
    t.ok((await store.findUser(a2!.id))?.suspendedAt, 'suspended in the store');
    const password = await givePassword(store, a2!);
    t.same(await pupilSignsIn(url, 'north', a2!.username, password), { failed: 401, signedIn: 401 }, 'and cannot sign in');
    t.equal((await call('POST', `${API}/schools/north/people/${a2!.id}/restore`, admin)).json.suspended, false);
    t.equal((await store.findUser(a2!.id))?.suspendedAt, undefined);
    const recorded = await eventually(() => call('GET', `${API}/schools/north/audit?kind=console&user_id=${a2!.id}`, admin), (r) => r.json.events.length >= 2);
    t.same(recorded.json.events.map((e: Json) => [e.action, e.actor_id, e.actor_name, e.subject_id, e.detail]), [
      ['user.restored', north.admin.user.id, 'Alex Admin', a2!.id, { via: 'api' }],
      ['user.suspended', north.admin.user.id, 'Alex Admin', a2!.id, { via: 'api' }],
    ]);
    const out = await eventually(() => call('GET', `${API}/schools/north/audit?kind=console&user_id=${a1!.id}`, admin), (r) => r.json.events.length >= 1);
    t.match(out.json.events, [{ action: 'user.signed_out', actor_id: north.teacher.user.id, actor_name: 'Tess Teacher', subject_id: a1!.id }]);
  });
}

t.test('on SQLite, with the OpenAPI document', async (t) => {
  const lanyard = await startLanyard(t);
  await schoolApi(t, lanyard);

  t.test('the OpenAPI document: valid 3.1, served without a token, listing every /school/api route, each enforcing what it declares', async (t) => {
    const res = await fetch(`${lanyard.url}${API}/openapi.json`);
    t.equal(res.status, 200);
    t.equal(res.headers.get('cache-control'), 'no-store');
    const doc: Json = await res.json();
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    t.same(result.errors, undefined, 'no validation errors');
    t.ok(result.valid, 'valid against the OpenAPI 3.1 schema');
    t.equal(validator.version, '3.1');
    t.match(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', bearerFormat: 'lys_<id>_<secret>' });
    for (const name of [
      'Error', 'School', 'Class', 'Pupil', 'Person', 'AuditEvent', 'AuditPage', 'Usage', 'IssuedHelpCode', 'HelpCode', 'MadeClassLink', 'ClassLink', 'EmojiPassword', 'GeneratedPassword',
      'StaffPerson', 'SchoolApp', 'AppRequest', 'OfferedApp', 'Apps', 'RosterPlan', 'RosterResult', 'RosterImport',
    ]) t.ok(doc.components.schemas[name], name);
    t.same(Object.keys(doc.paths['/school/api/schools/{org}/roster'].post.requestBody.content), ['application/zip', 'text/csv'], 'the roster’s export: a zip or a CSV');
    t.same(Object.keys(doc.paths['/school/api/schools/{org}/staff'].post.requestBody.content), ['application/json'], 'the other bodies: JSON');
    t.notOk(Object.keys(doc.components.schemas).some((k) => k.startsWith('def-')), 'every component has its own name');

    const operations = Object.entries(doc.paths as Json).flatMap(([path, item]: [string, Json]) => METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })));
    const documented = new Set(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`));
    const routes = new Set(routeTable(lanyard.app).filter((r) => r.path.startsWith(`${API}/`))
      .flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${r.path.replace(/:(\w+)/g, '{$1}')}`)));
    t.same([...routes].filter((r) => !documented.has(r)), [], 'no route left undocumented');
    t.same([...documented].filter((r) => !routes.has(r)), [], 'no documented route missing');
    t.same([...documented].sort(), [
      'DELETE /school/api/schools/{org}/apps/{client_id}', 'DELETE /school/api/schools/{org}/classes/{class_id}/links/{link_id}',
      'DELETE /school/api/schools/{org}/people/{user_id}/help-code',
      'DELETE /school/api/schools/{org}/staff/{user_id}/{role}',
      'GET /school/api/openapi.json', 'GET /school/api/schools', 'GET /school/api/schools/{org}/apps', 'GET /school/api/schools/{org}/audit',
      'GET /school/api/schools/{org}/classes', 'GET /school/api/schools/{org}/classes/{class_id}/links',
      'GET /school/api/schools/{org}/classes/{class_id}/pupils', 'GET /school/api/schools/{org}/help-codes',
      'GET /school/api/schools/{org}/roster/imports', 'GET /school/api/schools/{org}/staff', 'GET /school/api/schools/{org}/usage',
      'POST /school/api/schools/{org}/apps/{client_id}', 'POST /school/api/schools/{org}/apps/{client_id}/approve',
      'POST /school/api/schools/{org}/apps/{client_id}/decline', 'POST /school/api/schools/{org}/classes/{class_id}/links',
      'POST /school/api/schools/{org}/people/{user_id}/badge/void',
      'POST /school/api/schools/{org}/people/{user_id}/emoji', 'POST /school/api/schools/{org}/people/{user_id}/help-code',
      'POST /school/api/schools/{org}/people/{user_id}/password', 'POST /school/api/schools/{org}/people/{user_id}/restore',
      'POST /school/api/schools/{org}/people/{user_id}/sign-out', 'POST /school/api/schools/{org}/people/{user_id}/suspend',
      'POST /school/api/schools/{org}/people/{user_id}/unlock',
      'POST /school/api/schools/{org}/roster', 'POST /school/api/schools/{org}/staff',
    ]);
    const ids = operations.map((o) => o.op.operationId);
    t.equal(new Set(ids).size, ids.length, 'every operation has its own operationId');

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const matches = (schema: Json, body: unknown) => {
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
      return validate(body) ? [] : validate.errors;
    };
    const call = caller(lanyard.url);
    const admin = (await putStaffToken(lanyard.store, (await lanyard.store.findUserByUsername((await lanyard.store.findOrganisation('north'))!.id, 'north-admin'))!.id)).token;
    for (const { method, path, op } of operations) {
      const name = `${method.toUpperCase()} ${path}`;
      if (Array.isArray(op.security) && op.security.length === 0) continue;
      const anonymous = await call(method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x'), null);
      t.equal(anonymous.status, 401, `${name}: 401 without a token`);
      t.same(matches(op.responses['401'].content['application/json'].schema, anonymous.json), [], `${name}: the 401 as documented`);
      t.ok(op.responses['404'] && op.responses['500'] && op.responses['503'] || path === `${API}/schools`, `${name}: its errors documented`);
      if (method !== 'get') continue;
      const real = path.replace('{org}', 'north').replace('{class_id}', 'north-class-a');
      const answer = await call('GET', real, admin);
      t.equal(answer.status, 200, `${name}: answers`);
      t.same(matches(op.responses['200'].content['application/json'].schema, answer.json), [], `${name}: the answer as documented`);
    }
  });
});

t.test('on Redis', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await schoolApi(t, await startLanyard(t, { env: redisStoreEnv(redis.url, 'school-api') }));
});
