import t, { type Test } from 'tap';
import { classLinkUntil } from '../../src/accounts/class-link-length.js';
import { ManualClock } from '../../src/clock.js';
import { schoolDaySettings } from '../../src/config/school-day.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { apiSchools, byApi, schoolApiConfig } from '../helpers/school-api.js';

/**
 * Class links through the school API (docs/school-console.md → Class links, The school API): a teacher of the
 * class or a school admin makes one (`minutes`, `until` or the console's `length`, at most a day), gets its code
 * and link once, lists the class's live links without codes and revokes one; anyone else gets a 404. The code
 * answered opens the class's sign-in over HTTP until it is revoked; both changes are in the audit trail with
 * the token's holder as actor and `via: api`. On SQLite and on Redis.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const MINUTE = 60_000;

async function classLinks(t: Test, lanyard: Lanyard, clock: ManualClock): Promise<void> {
  const { north, admin, teacher, southAdmin, call, events } = await apiSchools(lanyard);
  const taught = north.taught.class;
  const other = north.other.class;
  const links = (klass: { id: string }) => `/north/classes/${klass.id}/links`;
  const opens = async (link: string) => (await new HttpBrowser().get(link, { accept: 'text/html' })).status;

  const start = clock.now();
  const hour = await call('POST', links(taught), teacher, { minutes: 60 });
  t.equal(hour.status, 201, 'a teacher makes one for their class: 201');
  t.match(hour.json, { id: /^[0-9a-f]{24}$/, class_id: taught.id, code: /^[0-9A-Z]{5}-[0-9A-Z]{5}$/ });
  const bare = hour.json.code.replace('-', '');
  t.equal(hour.json.url, `${lanyard.url}/class/${bare}`, 'the link: <issuer>/class/<code>');
  t.equal(hour.json.expires_at, new Date(start.getTime() + 60 * MINUTE).toISOString(), 'for 60 minutes');
  t.same(Object.keys(hour.json).sort(), ['class_id', 'code', 'expires_at', 'id', 'url']);
  const opened = await new HttpBrowser().get(hour.json.url, { accept: 'text/html' });
  t.equal(opened.status, 303, 'the link opens');
  t.equal(opened.headers.get('location'), '/sign-in?org=north', "on to the school's sign-in, where the tiles are");

  clock.advance(MINUTE);
  const far = await call('POST', `/north/classes/${taught.sourcedId}/links`, teacher, { until: new Date(clock.now().getTime() + 30 * 60 * MINUTE).toISOString() });
  t.equal(far.status, 201, 'until an instant, the class named by its sourcedId');
  t.equal(far.json.expires_at, new Date(clock.now().getTime() + 24 * 60 * MINUTE).toISOString(), 'brought back to a day');

  clock.advance(MINUTE);
  const day = await call('POST', links(other), admin, { length: 'school_day' });
  t.equal(day.status, 201, "the school's admin, for any class");
  t.equal(day.json.expires_at, classLinkUntil('school_day', clock.now(), schoolDaySettings(lanyard.config.file)).toISOString(), 'until the end of the school day, as the console says');

  for (const [body, path] of [
    [{}, ''], [{ minutes: 0 }, '/minutes'], [{ minutes: 1441 }, '/minutes'], [{ minutes: '60' }, '/minutes'], [{ length: 'week' }, '/length'],
    [{ until: 'tomorrow' }, '/until'], [{ minutes: 60, length: 'hour' }, ''],
  ] as const) {
    const refused = await call('POST', links(taught), teacher, body);
    t.equal(refused.status, 400, `${JSON.stringify(body)}: 400`);
    t.equal(refused.json.error, 'invalid_request');
    if (path) t.ok(refused.json.fields.some((f: Json) => f.path === path), `${JSON.stringify(body)}: names ${path}`);
  }
  const past = await call('POST', links(taught), teacher, { until: new Date(clock.now().getTime() - MINUTE).toISOString() });
  t.equal(past.status, 400, 'an end in the past: 400');
  t.same(past.json.fields, [{ path: '/until', message: 'must be in the future' }]);

  t.equal((await call('POST', links(other), teacher, { minutes: 60 })).status, 404, 'a class not theirs: 404');
  t.equal((await call('POST', links(taught), southAdmin, { minutes: 60 })).status, 404, "another school's admin: 404");
  t.equal((await call('POST', '/north/classes/no-such-class/links', admin, { minutes: 60 })).status, 404, 'no such class: 404');

  const listed = await call('GET', links(taught), teacher);
  t.equal(listed.status, 200);
  t.same(listed.json, [
    { id: far.json.id, class_id: taught.id, made_by: 'Tess Teacher', created_at: new Date(start.getTime() + MINUTE).toISOString(), expires_at: far.json.expires_at },
    { id: hour.json.id, class_id: taught.id, made_by: 'Tess Teacher', created_at: start.toISOString(), expires_at: hour.json.expires_at },
  ], 'the live links, newest first, who made each: never a code');
  t.notMatch(JSON.stringify(listed.json), bare);
  t.same((await call('GET', links(other), admin)).json.map((l: Json) => [l.id, l.made_by]), [[day.json.id, 'Alex Admin']]);
  t.equal((await call('GET', links(other), teacher)).status, 404, 'not their class’s: 404');
  t.equal((await call('GET', links(taught), southAdmin)).status, 404);

  t.equal((await call('DELETE', `${links(taught)}/${day.json.id}`, teacher)).status, 404, 'another class’s link through this class: 404');
  t.equal((await call('DELETE', `${links(other)}/${day.json.id}`, teacher)).status, 404, 'nor through a class not theirs');
  t.equal((await call('DELETE', `${links(taught)}/${hour.json.id}`, southAdmin)).status, 404, "nor another school's admin");
  t.equal(await opens(hour.json.url), 303, 'still open');
  t.equal((await call('DELETE', `${links(taught)}/${hour.json.id}`, teacher)).status, 204, 'revoked: 204');
  t.equal(await opens(hour.json.url), 404, 'the revoked link opens nothing');
  const again = await call('DELETE', `${links(taught)}/${hour.json.id}`, admin);
  t.equal(again.status, 404, 'revoked already: 404');
  t.match(again.json, { error: 'not_found', error_description: /has no such live class link/ });
  t.same((await call('GET', links(taught), teacher)).json.map((l: Json) => l.id), [far.json.id], 'no longer listed');

  const created = await events('class_link.created');
  t.match(created, [
    { ...byApi(north.admin), classId: other.id, detail: { link: day.json.id, length: 'school_day', expiresAt: day.json.expires_at } },
    { ...byApi(north.teacher), classId: taught.id, detail: { link: far.json.id, class: taught.title } },
    { ...byApi(north.teacher), classId: taught.id, detail: { link: hour.json.id, expiresAt: hour.json.expires_at } },
  ], 'each made, in the audit trail, by the token’s holder through the API');
  t.equal(created.length, 3, 'nothing refused is recorded');
  t.notMatch(JSON.stringify(created), bare, 'never the code');
  t.match(await events('class_link.revoked'), [{ ...byApi(north.teacher), classId: taught.id, detail: { link: hour.json.id } }]);
  t.equal((await events('class_link.revoked')).length, 1, 'revoked once');
}

t.test('on SQLite', async (t) => {
  const clock = new ManualClock();
  await classLinks(t, await startLanyard(t, { clock, env: { LANYARD_CONFIG: schoolApiConfig() } }), clock);
});

t.test('on Redis', async (t) => {
  const clock = new ManualClock();
  const redis = await startRedis(t, { aof: false });
  await classLinks(t, await startLanyard(t, { clock, env: { LANYARD_CONFIG: schoolApiConfig(), ...redisStoreEnv(redis.url, 'school-api-class-links') } }), clock);
});
