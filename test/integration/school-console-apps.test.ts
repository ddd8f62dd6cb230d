import t from 'tap';
import { systemClock } from '../../src/clock.js';
import { actorOf } from '../../src/developer/actor.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { appAudit, appSecret, askSchool, CALLBACK, dashboardTiles, notAvailable, schoolsPage, signInToApp } from '../helpers/console-apps.js';
import { formCsrf } from '../helpers/developer.js';
import { apiClient } from '../helpers/developer-api-client.js';
import { location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { liveApp } from '../helpers/live-app.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool, putStaffUser } from '../helpers/school-console.js';

/**
 * Apps asking to be used by a school (docs/school-console.md → Apps, docs/developer-area.md → Asking a school):
 * the owner of a live app asks from the developer area, the school's admins are told on the console's front
 * page, see what the app receives and approve it, and the school's pupils then have it on their dashboard and
 * sign in to it; or they decline with a reason the developers read. On SQLite and on Redis.
 */

for (const backend of ['sqlite', 'redis'] as const) {
  t.test(`${backend}: a developer asks, the school's admin sees what the app receives and approves it, and its pupils sign in`, async (t) => {
    const env = backend === 'redis' ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'console-apps') : {};
    const lanyard = await startLanyard(t, { env });
    const { store, url } = lanyard;
    const north = await putConsoleSchool(store, 'north', 'North Primary');
    await putConsoleSchool(store, 'south', 'South Primary');
    const pupil = await putStaffUser(store, north.organisation, 'north-pip', 'Pip', 'Pupil', 'student');
    const tables = await liveApp(lanyard, { owner: 'Ada Lovelace', app: 'Tables Trainer', callback: CALLBACK });
    const secret = await appSecret(tables);
    t.ok(await notAvailable(lanyard, tables.clientId, pupil.credentials), 'not the school\'s app yet: refused');

    const asked = await askSchool(lanyard, tables, 'North', 'Year 4 use it for their times tables.');
    t.equal(asked.status, 303, 'asked');
    t.match(await schoolsPage(lanyard, tables), /North Primary[\s\S]*Asked[\s\S]*waiting for the school’s answer/, 'the app\'s page: asked, waiting');

    const admin = await consoleSignInAsStaff(url, north.admin.credentials);
    const home = await consolePage(admin, `${url}/school/north`);
    t.match(home.html, /<a href="\/school\/north\/apps#asking">1 app is asking to be used by the school<\/a>/, 'the admin is told on the front page');
    const apps = await consolePage(admin, `${url}/school/north/apps`);
    t.equal(apps.status, 200);
    for (const [what, seen] of [
      ['its name', 'Tables Trainer'], ['its team', 'Developed by Ada Lovelace'], ['the note', 'Year 4 use it for their times tables.'],
      ['its scope', '<code>openid</code>'], ['the claims it carries', 'first and last name'], ['and when', 'when matched'],
      ['the claim names', /given_name, family_name/], ['an id of the school\'s system', 'their id in the school’s information system'],
    ] as const) t.match(apps.html, seen, `the request shows ${what}`);

    const approved = await consolePost(admin, `${url}/school/north/apps/requests/${tables.clientId}/approve`, apps.html);
    t.equal(approved.status, 303);
    t.equal(location(approved, url).pathname, '/school/north/apps');
    t.match(await store.findConnection(north.organisation.id, tables.clientId), { source: 'school', userTypes: undefined }, 'connected by the school, for everyone');
    t.equal(await store.findAppRequest(north.organisation.id, tables.clientId), undefined, 'the request is gone');
    const after = await consolePage(admin, `${url}/school/north/apps`);
    t.match(after.html, /is on your school’s dashboards now/, 'said once');
    t.match(after.html, /No app is asking to be used by the school/);
    t.match(after.html, /<strong>Tables Trainer<\/strong>[\s\S]*Everyone[\s\S]*A school admin/, 'in the school\'s apps');
    t.notMatch((await consolePage(admin, `${url}/school/north`)).html, /asking to be used/, 'nothing asks any more');

    t.ok((await dashboardTiles(lanyard, pupil.credentials)).includes(tables.clientId), 'on the pupils\' dashboard');
    const claims = await signInToApp(lanyard, tables.clientId, secret, pupil.credentials);
    t.equal(claims.sub, pupil.user.id, 'a pupil signs in to it');
    t.match(await schoolsPage(lanyard, tables), /North Primary[\s\S]*Uses the app/, 'the app\'s page: the school uses it');
    const history = await (await tables.owner.browser.get(`${url}/developer/apps/${tables.clientId}/history`)).text();
    t.match(history, /A school approved the app: it uses it<\/strong>: North Primary/);
    t.match(history, /Asked a school to use the app<\/strong>: North Primary — “Year 4 use it for their times tables.”/);
    t.match(history, /North Primary \(a school admin\)/, 'the school answered, no staff member named');
    t.notMatch(history, /Alex|Admin<\/p>/, 'not the admin\'s name');
    t.match(await appAudit(lanyard, north.organisation.id, 1), [{ action: 'app.request_approved', clientId: tables.clientId, actorId: north.admin.user.id, detail: { app: 'Tables Trainer' } }], 'in the school\'s audit trail');
  });
}

t.test('declining with a reason, asking through the API, a development app, and who may see the pages', async (t) => {
  const lanyard = await startLanyard(t);
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north', 'North Primary');
  const south = await putConsoleSchool(store, 'south', 'South Primary');
  const reader = await liveApp(lanyard, { owner: 'Bo Reed', app: 'Reading Rocket', callback: CALLBACK });
  t.equal((await askSchool(lanyard, reader, 'North', '')).status, 303, 'a note is optional');

  const admin = await consoleSignInAsStaff(url, north.admin.credentials);
  const apps = await consolePage(admin, `${url}/school/north/apps`);
  const declineUrl = `${url}/school/north/apps/requests/${reader.clientId}/decline`;
  const bare = await consolePost(admin, declineUrl, apps.html, { [`reason-${reader.clientId}`]: '  ' });
  t.equal(bare.status, 400, 'no reason: refused');
  t.match(await bare.text(), /Say why, in a sentence: the app’s developers read it/);
  const declined = await consolePost(admin, declineUrl, apps.html, { [`reason-${reader.clientId}`]: 'We use another reading app this year.' });
  t.equal(declined.status, 303);
  t.match(await schoolsPage(lanyard, reader), /North Primary[\s\S]*Declined[\s\S]*The school wrote: “We use another reading app this year.”/, 'the developers read why');
  t.match(await (await reader.owner.browser.get(`${url}/developer/apps/${reader.clientId}/history`)).text(), /A school declined the app<\/strong>: North Primary — “We use another reading app this year.”/);
  t.equal(await store.findConnection(north.organisation.id, reader.clientId), undefined, 'not connected');

  // The same through the API, with a token of the owner's.
  const { token } = await new ApiTokens({ store, clock: systemClock, log: lanyard.app.log }).create(reader.account, { label: 'test', expiresInDays: 7 });
  const api = apiClient(lanyard);
  const again = await api(token, 'POST', `/apps/${reader.clientId}/schools`, { organisation: 'north' });
  t.equal(again.status, 409, 'a school that declined is not asked again');
  t.match(again.json.error_description, /North Primary declined this app/);
  t.same((await api(token, 'GET', '/schools?q=south')).json, [{ id: south.organisation.id, slug: 'south', name: 'South Primary' }], 'a school found by name');
  t.same((await api(token, 'GET', '/schools?q=sandbox')).json, [], 'never the sandbox school');
  const toSouth = await api(token, 'POST', `/apps/${reader.clientId}/schools`, { organisation: south.organisation.id, note: 'For the library club.' });
  t.equal(toSouth.status, 201);
  t.match(toSouth.json, { school: { slug: 'south' }, status: 'pending', note: 'For the library club.' });
  t.equal((await api(token, 'POST', `/apps/${reader.clientId}/schools`, { organisation: 'south' })).status, 409, 'asked once');
  t.equal((await api(token, 'POST', `/apps/${reader.clientId}/schools`, { organisation: 'nowhere' })).status, 400, 'no such school');
  t.match((await api(token, 'GET', `/apps/${reader.clientId}/schools`)).json, [
    { school: { slug: 'south' }, status: 'pending' }, { school: { slug: 'north' }, status: 'declined', reason: 'We use another reading app this year.' },
  ]);

  // The school changes its mind: a declined request is approved after all.
  const later = await consolePage(admin, `${url}/school/north/apps`);
  t.match(later.html, /Declined \(1\)/);
  t.equal((await consolePost(admin, `${url}/school/north/apps/requests/${reader.clientId}/approve`, later.html)).status, 303);
  t.ok(await store.findConnection(north.organisation.id, reader.clientId), 'approved after all');
  t.match(await appAudit(lanyard, north.organisation.id, 2), [
    { action: 'app.request_declined', detail: { reason: 'We use another reading app this year.' } }, { action: 'app.request_approved' },
  ]);

  // A development app asks no school: only live apps reach real schools.
  const { clientId: draft } = await reader.apps.register(actorOf(reader.account), { name: 'Draft Reader' });
  const draftPage = await (await reader.owner.browser.get(`${url}/developer/apps/${draft}/schools?q=South`)).text();
  t.match(draftPage, /Only a live app can ask a school/);
  t.notMatch(draftPage, /name="organisation"/, 'no school to choose');
  const { csrf } = await formCsrf(reader.owner.browser, `${url}/developer/apps/${draft}/schools`);
  const draftAsks = await reader.owner.browser.post(`${url}/developer/apps/${draft}/schools`, { csrf, organisation: south.organisation.id, note: '' });
  t.equal(draftAsks.status, 409, 'a development app: refused');
  t.equal((await api(token, 'POST', `/apps/${draft}/schools`, { organisation: 'south' })).status, 409, 'and through the API');
  t.equal(await store.findAppRequest(south.organisation.id, draft), undefined);

  // The Apps pages are a school admin's: a teacher and an admin of another school get the 404 of an unknown address.
  const teacher = await consoleSignInAsStaff(url, north.teacher.credentials);
  const teachersHome = (await consolePage(teacher, `${url}/school/north`)).html;
  t.notMatch(teachersHome, /asking to be used|\/apps/, 'a teacher is not told, and has no Apps menu');
  t.equal((await consolePage(teacher, `${url}/school/north/apps`)).status, 404);
  t.equal((await consolePage(teacher, `${url}/school/north/apps/${reader.clientId}`)).status, 404);
  t.equal((await consolePost(teacher, `${url}/school/north/apps/${reader.clientId}/disconnect`, teachersHome)).status, 404);
  const southAdmin = await consoleSignInAsStaff(url, south.admin.credentials);
  const southHome = await consolePage(southAdmin, `${url}/school/south`);
  t.match(southHome.html, /1 app is asking to be used by the school/, 'South\'s admin is told of the request to South');
  t.equal((await consolePage(southAdmin, `${url}/school/north/apps`)).status, 404, 'another school\'s apps');
  t.equal((await consolePost(southAdmin, `${url}/school/north/apps/requests/${reader.clientId}/approve`, southHome.html)).status, 404);
  t.ok(await store.findConnection(north.organisation.id, reader.clientId), 'nothing changed');
});
