import t from 'tap';
import type { ClientConfig } from '../../src/config/schema.js';
import { appAudit, CALLBACK, dashboardTiles, notAvailable, signInToApp } from '../helpers/console-apps.js';
import { writeConfig } from '../helpers/config-file.js';
import { location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool, putStaffUser } from '../helpers/school-console.js';
import { PUPIL } from '../helpers/sign-in.js';

/**
 * A school's apps in the console (docs/school-console.md → Apps): the configuration file's apps that no school
 * lists are offered (`config_apps`, default `offered`: on no dashboard, signing no one in, until a school admin
 * connects one) or of every school (`every_school`, the behaviour before the console); who may use each app,
 * its place on the dashboard, and stopping using it, each recorded in the audit trail.
 */

const app = (client_id: string, name: string): ClientConfig => ({
  client_id, name, secrets: [`${client_id}-secret-value`], redirect_uris: [CALLBACK], default_scopes: ['openid'],
});

/** The demo (its app listed for Demo School) and two apps no school lists. */
const config = (configApps?: 'offered' | 'every_school') => writeConfig((c) => {
  c.clients.push(app('quiz', 'Quiz Time'), app('atlas', 'Atlas Explorer'));
  if (configApps) c.config_apps = configApps;
});

t.test('offered (the default): on no dashboard and signing no one in until a school admin connects it; then who, where, and stopping', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config() } });
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north', 'North Primary');
  const pupil = await putStaffUser(store, north.organisation, 'north-pip', 'Pip', 'Pupil', 'student');
  const teacher = north.teacher;
  t.same(await dashboardTiles(lanyard, pupil.credentials), [], 'nothing on a new school\'s dashboard');
  t.ok(await notAvailable(lanyard, 'quiz', pupil.credentials), 'an offered app signs no one in');
  t.same(await dashboardTiles(lanyard, PUPIL), ['demo-app'], 'the demo still shows its app: Demo School lists it');

  const admin = await consoleSignInAsStaff(url, north.admin.credentials);
  const apps = await consolePage(admin, `${url}/school/north/apps`);
  t.match(apps.html, /<h2 id="offered">Offered<\/h2>[\s\S]*Atlas Explorer[\s\S]*Quiz Time/, 'offered, by name');
  t.notMatch(apps.html, /Demo App/, 'an app the file lists for a school is that school\'s, offered to no other');
  t.match(apps.html, /Your school uses no apps yet/);
  for (const id of ['quiz', 'atlas']) {
    const connected = await consolePost(admin, `${url}/school/north/apps/connect`, apps.html, { client_id: id });
    t.equal(connected.status, 303, `${id} connected`);
    t.equal(location(connected, url).pathname, '/school/north/apps');
  }
  t.equal((await consolePost(admin, `${url}/school/north/apps/connect`, apps.html, { client_id: 'demo-app' })).status, 404, 'an app not offered cannot be connected');
  t.same(await dashboardTiles(lanyard, pupil.credentials), ['quiz', 'atlas'], 'on the dashboard, in the order connected');
  t.equal((await signInToApp(lanyard, 'quiz', 'quiz-secret-value', pupil.credentials)).sub, pupil.user.id, 'it signs the school\'s people in');
  const listed = (await consolePage(admin, `${url}/school/north/apps`)).html;
  t.match(listed, /No other app is offered to the school/, 'connected apps are offered no more');

  // Who may use it: only pupils.
  const quizPage = await consolePage(admin, `${url}/school/north/apps/quiz`);
  t.equal(quizPage.status, 200);
  t.match(quizPage.html, /What it receives about the people it signs in/);
  const badTypes = await consolePost(admin, `${url}/school/north/apps/quiz/types`, quizPage.html, { user_types: 'year 4!' });
  t.equal(badTypes.status, 400);
  t.match(await badTypes.text(), /Type user types as words of lowercase letters/);
  const types = await consolePost(admin, `${url}/school/north/apps/quiz/types`, quizPage.html, { user_types: 'Student' });
  t.equal(types.status, 303);
  t.same((await store.findConnection(north.organisation.id, 'quiz'))?.userTypes, ['student']);
  t.match((await consolePage(admin, `${url}/school/north/apps/quiz`)).html, /Only student may use Quiz Time now/);
  t.same(await dashboardTiles(lanyard, teacher.credentials), ['atlas'], 'a teacher: not on their dashboard');
  await t.rejects(signInToApp(lanyard, 'quiz', 'quiz-secret-value', teacher.credentials), /login failed with 403/, 'nor may it sign them in');

  // Its place: Move up from the list, a place on the app's page.
  const moved = await consolePost(admin, `${url}/school/north/apps/atlas/move`, listed, { place: '1' });
  t.equal(moved.status, 303);
  t.equal(location(moved, url).hash, '#connected', 'back to the list');
  t.same(await dashboardTiles(lanyard, pupil.credentials), ['atlas', 'quiz'], 'moved up');
  const atlasPage = await consolePage(admin, `${url}/school/north/apps/atlas`);
  t.equal((await consolePost(admin, `${url}/school/north/apps/atlas/move`, atlasPage.html, { place: 'last', from: 'app' })).status, 400, 'a place is a number');
  t.equal(location(await consolePost(admin, `${url}/school/north/apps/atlas/move`, atlasPage.html, { place: '2', from: 'app' }), url).pathname, '/school/north/apps/atlas');
  t.same(await dashboardTiles(lanyard, pupil.credentials), ['quiz', 'atlas']);

  // Stopping.
  const stopped = await consolePost(admin, `${url}/school/north/apps/quiz/disconnect`, quizPage.html);
  t.equal(stopped.status, 303);
  t.equal(await store.findConnection(north.organisation.id, 'quiz'), undefined);
  t.same(await dashboardTiles(lanyard, pupil.credentials), ['atlas']);
  t.ok(await notAvailable(lanyard, 'quiz', pupil.credentials), 'and it signs no one in again');
  t.match((await consolePage(admin, `${url}/school/north/apps`)).html, /<h2 id="offered">Offered<\/h2>[\s\S]*Quiz Time/, 'offered again');
  t.equal((await consolePage(admin, `${url}/school/north/apps/quiz`)).status, 404, 'not the school\'s any more');

  t.match(await appAudit(lanyard, north.organisation.id, 6), [
    { action: 'app.connected', clientId: 'quiz', actorId: north.admin.user.id }, { action: 'app.connected', clientId: 'atlas' },
    { action: 'app.user_types_changed', clientId: 'quiz', detail: { user_types: 'student' } },
    { action: 'app.moved', clientId: 'atlas', detail: { place: '1' } }, { action: 'app.moved', clientId: 'atlas', detail: { place: '2' } },
    { action: 'app.disconnected', clientId: 'quiz' },
  ], 'every change in the audit trail');
});

t.test('every_school keeps the behaviour before the console: on every school\'s dashboard, offered to none, chosen here to set who and where', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config('every_school') } });
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north', 'North Primary');
  const pupil = await putStaffUser(store, north.organisation, 'north-pip', 'Pip', 'Pupil', 'student');
  t.same(await dashboardTiles(lanyard, pupil.credentials), ['atlas', 'quiz'], 'a new school has them, by name');
  t.equal((await signInToApp(lanyard, 'quiz', 'quiz-secret-value', pupil.credentials)).sub, pupil.user.id);

  const admin = await consoleSignInAsStaff(url, north.admin.credentials);
  const apps = await consolePage(admin, `${url}/school/north/apps`);
  t.match(apps.html, /<strong>Atlas Explorer<\/strong>[\s\S]*The configuration file, for every school[\s\S]*Choose here/, 'listed as the file\'s, for every school');
  t.match(apps.html, /No other app is offered to the school/);
  const quizPage = await consolePage(admin, `${url}/school/north/apps/quiz`);
  t.match(quizPage.html, /puts this app on every school’s dashboards/);
  t.notMatch(quizPage.html, /name="user_types"/, 'the file\'s to change, until chosen here');
  t.equal((await consolePost(admin, `${url}/school/north/apps/quiz/disconnect`, apps.html)).status, 400, 'an app of every school is the file\'s');
  t.equal((await consolePost(admin, `${url}/school/north/apps/connect`, apps.html, { client_id: 'quiz' })).status, 303, 'chosen here');
  t.match(await store.findConnection(north.organisation.id, 'quiz'), { source: 'school', position: 0 });
  t.same(await dashboardTiles(lanyard, pupil.credentials), ['quiz', 'atlas'], 'the school\'s own first, then the file\'s of every school');
  t.match((await consolePage(admin, `${url}/school/north/apps/quiz`)).html, /name="user_types"/, 'now the school chooses who uses it');
});
