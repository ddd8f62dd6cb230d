import { parse } from 'csv-parse/sync';
import t, { type Test } from 'tap';
import type { HttpBrowser } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { DAYS, eventually, FORMULA_NAME, givePassword, linkTo, MANY, pupilSignsIn, seedTrail, tableRows } from '../helpers/school-audit.js';
import { consolePage, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';

/**
 * The school's audit trail and use per day in the console (docs/school-console.md → Audit and usage), over
 * HTTP on a real store: real sign-ins (one failed) show on the page and in the CSV, each filter narrows as it
 * says, pages go back in time, the CSV reads back and neutralises formulas, the usage figures are the sign-ins
 * made, and only the school's own admins see any of it (404 for a teacher and for another school's admin).
 */

const today = new Date().toISOString().slice(0, 10);
const csvRows = (text: string): Record<string, string>[] => parse(text, { bom: true, columns: true });

async function auditAndUsage(t: Test, lanyard: Lanyard): Promise<void> {
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const south = await putConsoleSchool(store, 'south');
  await seedTrail(store, north, south);
  const [a1, a2, a3] = north.taught.pupils;
  const [b1, b2] = north.other.pupils;
  const admin: HttpBrowser = await consoleSignInAsStaff(url, north.admin.credentials);
  const page = (query = '') => consolePage(admin, `${url}/school/north/audit${query}`);
  const rows = async (query = '') => tableRows((await page(query)).html);

  t.test('a real sign-in and a failed one are on the page and in the CSV', async (t) => {
    const password = await givePassword(store, a3!);
    t.same(await pupilSignsIn(url, 'north', a3!.username, password), { failed: 401, signedIn: 303 }, 'one wrong password, then the right one');
    const who = `?person=${a3!.username}&from=${today}&to=${today}`;
    const found = await eventually(() => rows(who), (r) => r.length >= 2);
    const signIn = found.find((r) => r[1] === 'Sign-in');
    const failed = found.find((r) => r[1] === 'Failed sign-in');
    t.ok(signIn, 'the sign-in');
    t.match(signIn?.join(' | '), /Chloé Dubois.*password/, 'who, and how');
    t.ok(failed, 'the failed sign-in');
    t.match(failed?.join(' | '), /Chloé Dubois.*password/, 'whom it was for, and how');
    const csv = await admin.get(`${url}/school/north/audit.csv${who}`);
    t.equal(csv.status, 200);
    const lines = csvRows(await csv.text());
    t.same(lines.map((l) => l.kind).sort(), ['sign_in', 'sign_in_failed']);
    t.ok(lines.every((l) => l.subject_id === a3!.id && l.method === 'password'));
    t.equal(lines.find((l) => l.kind === 'sign_in')?.result, 'success');
  });

  t.test('filters: day, person, class, app and kind, each alone and together', async (t) => {
    const firstDay = await rows(`?from=${DAYS.first}&to=${DAYS.first}`);
    t.same(firstDay.map((r) => r[2]), ['Zoë Ng', 'Ada Jones'], 'the first day: two sign-ins, newest first, none of the other school');
    t.match(firstDay[1]!.join(' | '), /emoji password, classroom device.*app-maths.*succeeded/);
    const ada = await rows(`?person=ada&to=${DAYS.second}`);
    t.same(ada.map((r) => r[1]), ['App opened', 'Sign-in'], 'a person by part of their name (any case)');
    t.match((await page('?person=ada')).html, /Events of the one person matching “ada”: Ada Jones/, 'the page says whom it found');
    t.equal((await rows(`?person=${b2!.username}&from=${DAYS.third}`)).length, 50, 'a person by username');
    const classA = await rows(`?class_id=${north.taught.class.id}&to=${DAYS.third}`);
    t.ok(classA.length >= 3 && classA.every((r) => /Ada Jones|Ben Li|Tess Teacher/.test(r.join(' '))), 'a class: its people only');
    t.ok(classA.some((r) => r[1] === 'Failed sign-in'), 'its pupils’ failures too');
    const reading = await rows(`?app=app-reading&to=${DAYS.third}`);
    t.same(reading.map((r) => `${r[1]} ${r[2]}`), ['App opened Ada Jones', 'Sign-in Zoë Ng'], 'an app');
    const failures = await rows(`?kind=sign_in_failed&to=${DAYS.third}`);
    t.equal(failures.length, 1, 'a kind');
    t.match(failures[0]!.join(' | '), /Ben Li.*wrong credential × 5/, 'a merged row shows its count');
    t.same(await rows(`?kind=launch&class_id=${north.other.class.id}&to=${DAYS.third}`), [], 'filters combine');
    t.match((await page('?person=nobody-at-all')).html, /Nobody at the school has a name or username with “nobody-at-all” in it/);
    t.same(await rows(`?person=${encodeURIComponent(south.taught.pupils[0]!.username)}`), [], 'a search never reaches another school');
    const refused = await page('?from=2025-02-30&kind=everything');
    t.equal(refused.status, 400, 'a refused filter');
    t.match(refused.html, /href="#f-from"/, 'each refused field is named, a link to it');
    t.match(refused.html, /href="#f-kind"/);
    t.equal((await page(`?class_id=${south.taught.class.id}`)).status, 404, 'another school’s class is not there');
  });

  t.test('pages go back in time with the before cursor, 50 at a time', async (t) => {
    const query = `?person=${b2!.username}&from=${DAYS.third}&to=${DAYS.third}`;
    const first = await page(query);
    const older = linkTo(first.html, 'Older events');
    t.ok(older, 'a link to older events');
    const second = await consolePage(admin, `${url}${older}`);
    const third = await consolePage(admin, `${url}${linkTo(second.html, 'Older events')}`);
    const seen = [first, second, third].map((p) => tableRows(p.html));
    t.same(seen.map((r) => r.length), [50, 50, MANY - 100]);
    t.notOk(linkTo(third.html, 'Older events'), 'the last page has no older one');
    t.ok(linkTo(second.html, 'Newest events'), 'and a way back to the newest');
    const times = seen.flat().map((r) => r[0]);
    t.same(times, [...times].sort().reverse(), 'newest first throughout');
    t.match(older!, /person=.*&before=/, 'the filters go on');
    t.equal((await page('?before=garbage')).status, 400, 'a cursor not ours is refused');
  });

  t.test('the CSV: same filters, every page, an attachment, read back with csv-parse, formulas neutralised', async (t) => {
    const res = await admin.get(`${url}/school/north/audit.csv?from=${DAYS.third}&to=${DAYS.third}`);
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^text\/csv; charset=utf-8/);
    t.match(res.headers.get('content-disposition'), /^attachment; filename="audit-north-2025-01-08_to_2025-01-08\.csv"$/);
    t.equal(res.headers.get('cache-control'), 'no-store');
    const lines = csvRows(await res.text());
    t.equal(lines.length, MANY + 1, 'all of it, not one page');
    const formula = lines.find((l) => l.action === 'staff.granted');
    t.equal(formula?.actor_name, `'${FORMULA_NAME}`, 'a formula is text');
    t.equal(lines.filter((l) => l.action === 'emoji.reset' && l.subject_id === b2!.id).length, MANY);
    const merged = csvRows(await (await admin.get(`${url}/school/north/audit.csv?kind=sign_in_failed&to=${DAYS.third}`)).text());
    t.same(merged.map((l) => [l.subject_name, l.count, l.source]), [['Ben Li', '5', '10.0.0.9']]);
    const first = csvRows(await (await admin.get(`${url}/school/north/audit.csv?from=${DAYS.first}&to=${DAYS.first}`)).text());
    t.same(first.map((l) => l.subject_id), [b1!.id, a1!.id], 'the other school’s event is not in it');
    t.equal((await admin.get(`${url}/school/north/audit.csv?to=nonsense`)).status, 400);
    t.ok(linkTo((await page(`?from=${DAYS.first}`)).html, 'Download these events as CSV')?.includes(`/school/north/audit.csv?from=${DAYS.first}`), 'the page links its CSV');
  });

  t.test('use per day: the figures are the sign-ins made', async (t) => {
    const usage = await consolePage(admin, `${url}/school/north/usage?from=${DAYS.first}&to=${DAYS.third}`);
    t.equal(usage.status, 200);
    const figures = (html: string) => Object.fromEntries([...html.matchAll(/<dt>([^<]+)<\/dt><dd>(\d+)<\/dd>/g)].map((m) => [m[1]!, Number(m[2])]));
    t.same(figures(usage.html), { 'Sign-ins': 2, 'By emoji password': 1, 'By badge': 1, 'Failed sign-ins': 5, 'app-reading': 2, 'app-maths': 1 });
    const days = tableRows(usage.html);
    t.match(days.find((r) => r[0] === DAYS.first)?.join(' | '), /^2025-01-06 \| 2 \|/, 'each day its sign-ins');
    t.ok(days.some((r) => r[0] === DAYS.third), 'days without any too');
    // Today: the admin's sign-in to the console and the pupil's to the dashboard, both by password; the pupil's one wrong password.
    const now = figures((await consolePage(admin, `${url}/school/north/usage`)).html);
    t.equal(now['By password'], 2, 'today’s sign-ins by password');
    t.equal(now['Failed sign-ins'], 1, 'and the failed one');
    t.equal((await consolePage(admin, `${url}/school/north/usage?from=2020-01-01&to=2025-01-01`)).status, 400, 'at most a year at once');
    const home = await consolePage(admin, `${url}/school/north`);
    t.match(home.html, /Today so far: <strong>2 sign-ins<\/strong>, 1 failed\./, 'the admin’s front page says how many signed in today');
    t.match(linkTo(home.html, 'Who signed in today'), `/school/north/audit?from=${today}&to=${today}&kind=sign_in`, 'and links to them');
  });

  t.test('a teacher, and another school’s admin, get 404 for all of it', async (t) => {
    const teacher = await consoleSignInAsStaff(url, north.teacher.credentials);
    const southAdmin = await consoleSignInAsStaff(url, south.admin.credentials);
    for (const path of ['/audit', '/audit.csv', '/usage', `/audit?person=${a2!.username}`]) {
      t.equal((await teacher.get(`${url}/school/north${path}`, { accept: 'text/html' })).status, 404, `a teacher: ${path}`);
      t.equal((await southAdmin.get(`${url}/school/north${path}`, { accept: 'text/html' })).status, 404, `another school's admin: ${path}`);
    }
    t.notMatch((await consolePage(teacher, `${url}/school/north`)).html, /Today so far/, 'nor the teacher’s front page');
    t.equal((await southAdmin.get(`${url}/school/south/audit`, { accept: 'text/html' })).status, 200, 'their own school’s is theirs');
  });
}

t.test('on SQLite', async (t) => auditAndUsage(t, await startLanyard(t)));

t.test('on Redis', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await auditAndUsage(t, await startLanyard(t, { env: redisStoreEnv(redis.url, 'audit') }));
});
