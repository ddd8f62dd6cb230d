import t from 'tap';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { routeTable } from '../helpers/route-table.js';
import { signIn } from '../helpers/sign-in.js';
import { consolePage, consolePost, consoleSignIn, consoleSignInAsStaff, putConsoleSchool, putStaffUser } from '../helpers/school-console.js';

/**
 * Who may do what in the school console (docs/school-console.md → Who may do what), decided in one place
 * (src/school/access.ts) and held here against the whole route table: a teacher sees only their classes and
 * their pupils, an admin of another school gets the same 404 as an address that does not exist, for every
 * page and form of the console, and someone who is not staff is turned away at sign-in.
 */
t.test('the console: roles, schools and the 404 for everything not yours', async (t) => {
  const lanyard = await startLanyard(t);
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');

  t.test('a signed-out browser is sent to sign in, with the page to come back to', async (t) => {
    const res = await new HttpBrowser().get(`${url}/school/north/classes/${north.taught.class.id}`, { accept: 'text/html' });
    t.equal(res.status, 303);
    t.equal(location(res, url).pathname + location(res, url).search, `/school/sign-in?next=${encodeURIComponent(`/school/north/classes/${north.taught.class.id}`)}`);
  });

  t.test('someone who is not staff is told the console is for school staff', async (t) => {
    const pupil = await putStaffUser(store, north.organisation, 'north-pupil-x', 'Pip', 'Pupil', 'student');
    const { done } = await consoleSignIn(url, pupil.credentials);
    t.equal(done.status, 403);
    t.match(await done.text(), /The school console is for school staff/);
  });

  t.test('a browser already signed in to Lanyard gets no console session without signing in again', async (t) => {
    const browser = new HttpBrowser();
    const dashboardSignIn = location(await browser.get(`${url}/sign-in?org=north`), url);
    const back = await signIn(browser, url, dashboardSignIn, north.teacher.credentials);
    await browser.get(back);
    t.match(await (await browser.get(`${url}/`, { accept: 'text/html' })).text(), 'Sign out', 'signed in to the dashboard');
    const authorize = location(await browser.get(`${url}/school/sign-in`), url);
    t.equal(authorize.searchParams.get('prompt'), 'login', 'the console asks for the credential again');
    t.equal(authorize.searchParams.get('nonce')?.length ? 'bound' : 'unbound', 'bound', 'and binds the sign-in to this request');
    const skipped = await browser.get(`${url}/school/sign-in/done?state=${encodeURIComponent(authorize.searchParams.get('state')!)}`);
    t.equal(skipped.status, 400, 'coming back without a sign-in is refused');
    const withOld = await browser.get(`${url}/school/sign-in/done?code=${back.searchParams.get('code') ?? 'x'}&state=${encodeURIComponent(authorize.searchParams.get('state')!)}`);
    t.equal(withOld.status, 400, "and so is another request's code");
    t.equal((await browser.get(`${url}/school/north`, { accept: 'text/html' })).status, 303, 'no console session was made');
  });

  t.test('a teacher sees their own classes only, and gets 404 for the rest', async (t) => {
    const browser = await consoleSignInAsStaff(url, north.teacher.credentials);
    const home = await consolePage(browser, `${url}/school/north`);
    t.equal(home.status, 200);
    t.match(home.html, 'Class A', 'their class');
    t.notMatch(home.html, 'Class B', 'not a class they do not teach');
    t.notMatch(home.html, /href="\/school\/north\/people"/, 'no admin menu');
    t.equal((await consolePage(browser, `${url}/school/north/classes/${north.other.class.id}`)).status, 404, 'another class of the school');
    t.equal((await consolePage(browser, `${url}/school/south`)).status, 404, 'another school');
    t.equal((await consolePage(browser, `${url}/school/north/people`)).status, 404, 'admin pages');
  });

  t.test('an admin sees every class of their school, and nothing of another', async (t) => {
    const browser = await consoleSignInAsStaff(url, north.admin.credentials);
    const home = await consolePage(browser, `${url}/school/north`);
    t.equal(home.status, 200);
    t.match(home.html, 'Class A');
    t.match(home.html, 'Class B');
    t.equal((await consolePage(browser, `${url}/school/south`)).status, 404);
    t.equal((await consolePage(browser, `${url}/school/south/classes/${south.taught.class.id}`)).status, 404);
  });

  t.test("every console address of another school is a 404, for a GET and for a form", async (t) => {
    const browser = await consoleSignInAsStaff(url, north.admin.credentials);
    const page = (await consolePage(browser, `${url}/school/north`)).html;
    const routes = routeTable(lanyard.app).filter((r) => r.path.startsWith('/school/:org'));
    t.ok(routes.length >= 1, 'the console has pages of a school');
    const ids: Record<string, string> = {
      org: 'south', classId: south.taught.class.id, userId: south.taught.pupils[0]!.id, clientId: 'demo-app',
    };
    for (const r of routes) {
      const path = r.path.replace(/:(\w+)/g, (_m, name: string) => ids[name] ?? 'x');
      for (const method of r.methods.filter((m) => m === 'GET' || m === 'POST')) {
        const res = method === 'GET' ? await browser.get(`${url}${path}`, { accept: 'text/html' }) : await consolePost(browser, `${url}${path}`, page);
        t.equal(res.status, 404, `${method} ${r.path} of another school`);
      }
    }
  });

  t.test('signing out ends the console session and the Lanyard session, in one click', async (t) => {
    const browser = await consoleSignInAsStaff(url, north.teacher.credentials);
    const page = (await consolePage(browser, `${url}/school/north`)).html;
    const out = await consolePost(browser, `${url}/school/sign-out`, page);
    t.equal(out.status, 303);
    t.equal((await browser.get(`${url}/school/north`, { accept: 'text/html' })).status, 303, 'the console asks to sign in again');
    const dashboard = await (await browser.get(`${url}/`, { accept: 'text/html' })).text();
    t.notMatch(dashboard, 'Sign out', 'nor is the browser signed in to Lanyard');
  });
});
