import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { takeStoreLock } from '../../src/accounts/store-lock.js';
import { ROSTER_LOCK } from '../../src/roster/roster-lock.js';
import { UPLOAD_BYTES } from '../../src/school/roster-uploads.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { rosterFixture, tempDir, zipFolder } from '../helpers/roster-files.js';
import { auditEvents, type ConsoleSchool, consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';
import { schoolExportZip, uploadRoster } from '../helpers/school-roster.js';

/**
 * The roster in the school console (docs/school-console.md → The roster), over HTTP as a browser without
 * JavaScript: a school admin uploads the school's OneRoster zip, sees the plan (added, changed field by field,
 * leaving, and the mass-removal guard), applies it (with the box), finds it in the history and the audit trail,
 * and the store has it; a bad file shows its errors with file and line and applies nothing; a plan the store
 * moved away from is shown again, not applied; another import at work is said; on SQLite and on Redis.
 */

/** The plan page the upload went on to (its address and HTML). */
async function uploaded(t: Test, browser: HttpBrowser, url: string, school: ConsoleSchool, zip: string): Promise<{ plan: string; html: string }> {
  const rosterPage = await consolePage(browser, `${url}/school/${school.organisation.slug}/roster`);
  t.equal(rosterPage.status, 200, 'the roster page');
  const res = await uploadRoster(browser, url, school.organisation.slug, rosterPage.html, zip);
  t.equal(res.status, 303, 'the upload is answered with its plan');
  const plan = location(res, url).toString();
  t.match(plan, new RegExp(`/school/${school.organisation.slug}/roster/plans/[\\w-]{22}$`));
  const page = await consolePage(browser, plan);
  t.equal(page.status, 200);
  return { plan, html: page.html };
}

const NEWCOMERS = [
  { username: 'north-new1', given: 'Nia', family: 'Newcomer', klass: 'a' as const },
  { username: 'north-new2', given: 'Ned', family: 'Newman', klass: 'b' as const },
];

async function rosterScenario(t: Test, lanyard: Lanyard): Promise<void> {
  const { store, url } = lanyard;
  const north = await putConsoleSchool(store, 'north');
  const dir = tempDir(t);
  const browser = await consoleSignInAsStaff(url, north.admin.credentials);
  const [ada, ben, chloe] = north.taught.pupils;
  const sam = north.other.pupils[3]!;

  t.test('upload, the plan, the guard, apply: the store, the history and the audit trail have it', async (t) => {
    const zip = await schoolExportZip(dir, 'first', north, {
      drop: [sam.username], rename: { [chloe!.username]: 'Dubois-Martin' },
      add: NEWCOMERS,
    });
    const { plan, html } = await uploaded(t, browser, url, north, zip);
    t.match(html, /first\.zip<\/strong> \(OneRoster 1\.1\)/, 'the file and its format');
    t.match(html, /<tr><th scope="row">users<\/th><td data-label="Added">2<\/td><td data-label="Changed">7<\/td><td data-label="Unchanged">0<\/td><td data-label="Leaving">1<\/td><\/tr>/, 'the counts');
    t.match(html, /north-new1/, 'who is added');
    t.match(html, /<code>family_name<\/code>: <q>Dubois<\/q> → <q>Dubois-Martin<\/q>/, 'a change, field by field');
    t.match(html, new RegExp(`Records leaving[\\s\\S]*${sam.username}`), 'who leaves');
    t.match(html, /A large part of the school would leave/, 'the mass-removal guard');
    t.match(html, /1 of the 8 roster-managed users of north would leave \(12\.5 %, more than the 10 % allowed\)\./);
    t.match(html, /name="allow_mass_removal"/, 'the box');
    const before = await store.listRosterImports(10);

    const refused = await consolePost(browser, `${plan}/apply`, html);
    t.equal(refused.status, 400, 'without the box: refused');
    t.match(await refused.text(), /Tick the box to confirm/);
    t.same(await store.listRosterImports(10), before, 'nothing applied');
    t.equal((await store.findUserByUsername(north.organisation.id, 'north-new1')), undefined);

    const applied = await consolePost(browser, `${plan}/apply`, html, { allow_mass_removal: 'yes' });
    t.equal(applied.status, 303);
    t.equal(location(applied, url).pathname, '/school/north/roster');
    const after = await consolePage(browser, `${url}/school/north/roster`);
    t.match(after.html, /The roster was applied \(organisations: 1 changed; classes: 2 changed; users: 2 added, 7 changed, 1 leaving; enrolments: 2 added, 7 changed, 2 leaving\)/, 'the message');
    t.match(after.html, /north-admin in the console/, 'the history names the admin');
    t.match(after.html, /users: 2 added/, 'and what changed');
    t.equal((await consolePage(browser, plan)).status, 404, 'the upload is gone once applied');

    t.ok(await store.findUserByUsername(north.organisation.id, 'north-new1'), 'a pupil added');
    t.equal((await store.findUser(chloe!.id))?.familyName, 'Dubois-Martin', 'a name changed');
    t.equal((await store.findUser(sam.id))?.rosterHold, 'left', 'a leaver held');
    t.equal((await store.findUser(ada!.id))?.rosterHold, undefined, 'the others stay');
    const [run] = await store.listRosterImports(1);
    t.equal(run?.by, 'console:north-admin');
    t.same(run?.organisations, ['north']);
    const events = await auditEvents(lanyard, north.organisation.id, 'roster.applied');
    t.equal(events.length, 1, 'one event for the one import');
    t.match(events[0], { kind: 'import', actorId: north.admin.user.id, actorName: 'Alex Admin' });
    t.same(events[0]?.detail, {
      run: run!.id, file: 'first.zip', format: run!.format, 'organisations.changed': '1', 'classes.changed': '2',
      'users.added': '2', 'users.changed': '7', 'users.leaving': '1', 'enrollments.added': '2', 'enrollments.changed': '7', 'enrollments.leaving': '2',
      mass_removal: 'allowed',
    }, 'the run, the file, its format, the counts that are not 0 and the confirmed mass removal (src/roster/import-audit.ts)');
  });

  t.test('a bad file shows its errors with file and line, and applies nothing', async (t) => {
    const zip = await schoolExportZip(dir, 'bad', north, { usersRows: ['bad1,,,true,north-org,wizard,north-wiz,,Wiz,Ard,,,,,,,,'] });
    const { plan, html } = await uploaded(t, browser, url, north, zip);
    t.match(html, /2 errors: nothing can be applied<\/h2>/, 'the errors');
    t.match(html, /<td data-label="File">users\.csv<\/td><td data-label="Line">10<\/td><td data-label="Column">role<\/td><td data-label="Value"><code>wizard<\/code><\/td><td data-label="Reason">not a OneRoster 1\.1 role/, 'the file, line, column, value and reason');
    t.notMatch(html, /Apply this plan/, 'no Apply');
    const before = await store.listRosterImports(10);
    const res = await consolePost(browser, `${plan}/apply`, html);
    t.equal(res.status, 400);
    t.same(await store.listRosterImports(10), before, 'nothing applied');
    t.equal(await store.findUserByUsername(north.organisation.id, 'north-wiz'), undefined);
    const discarded = await consolePost(browser, `${plan}/discard`, html);
    t.equal(discarded.status, 303);
    t.equal((await consolePage(browser, plan)).status, 404, 'discarded');
  });

  t.test('a file that is no roster, a district export, and no file at all are refused', async (t) => {
    const page = (await consolePage(browser, `${url}/school/north/roster`)).html;
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello');
    const notRoster = await uploadRoster(browser, url, 'north', page, text);
    t.equal(notRoster.status, 400);
    const said = await notRoster.text();
    t.match(said, /notes\.txt is not a roster export/);
    t.notMatch(said, /lanyard-roster-uploads|\/tmp\//, 'never where the server kept it');
    const district = await uploadRoster(browser, url, 'north', page, await zipFolder(rosterFixture('oneroster-1.1'), join(dir, 'district.zip')));
    t.equal(district.status, 303, 'a district export is planned');
    const districtPlan = await consolePage(browser, location(district, url).toString());
    t.match(districtPlan.html, /this export has 3 schools/, 'and refused as --org refuses it');
    t.notMatch(districtPlan.html, /Apply this plan/);
    const none = await browser.request(`${url}/school/north/roster`, { method: 'POST', body: (() => { const f = new FormData(); f.set('csrf', /name="csrf" value="([^"]+)"/.exec(page)![1]!); return f; })() });
    t.equal(none.status, 400);
    t.match(await none.text(), /Choose the export to upload/);
    const huge = new FormData();
    huge.set('csrf', /name="csrf" value="([^"]+)"/.exec(page)![1]!);
    huge.set('file', new Blob([Buffer.alloc(UPLOAD_BYTES + 1)]), 'huge.zip');
    const tooLarge = await browser.request(`${url}/school/north/roster`, { method: 'POST', body: huge });
    t.equal(tooLarge.status, 400);
    t.match(await tooLarge.text(), /The file is larger than 50 MiB/);
    const forged = new FormData();
    forged.set('csrf', 'forged');
    forged.set('file', new Blob(['x']), 'x.csv');
    t.equal((await browser.request(`${url}/school/north/roster`, { method: 'POST', body: forged })).status, 403, 'a forged form');
  });

  t.test('a plan the store moved away from is shown again, not applied; another import at work is said', async (t) => {
    const zip = await schoolExportZip(dir, 'second', north, {
      drop: [sam.username], rename: { [ben!.username]: 'Lee', [chloe!.username]: 'Dubois-Martin' }, add: NEWCOMERS,
    });
    const { plan, html } = await uploaded(t, browser, url, north, zip);
    t.match(html, /<q>Li<\/q> → <q>Lee<\/q>/);
    await store.upsertUser({ ...(await store.findUser(ben!.id))!, familyName: 'Lo' });
    const stale = await consolePost(browser, `${plan}/apply`, html);
    t.equal(stale.status, 303);
    t.equal(location(stale, url).toString(), plan, 'back to the plan');
    const again = await consolePage(browser, plan);
    t.match(again.html, /changed since this plan was made, so nothing was applied/);
    t.match(again.html, /<q>Lo<\/q> → <q>Lee<\/q>/, 'the plan made again');
    t.equal((await store.findUser(ben!.id))?.familyName, 'Lo', 'nothing applied');

    const token = await takeStoreLock(store, ROSTER_LOCK, { ttlMs: 60_000, waitMs: 0 });
    const busy = await consolePost(browser, `${plan}/apply`, again.html);
    await store.unlock(ROSTER_LOCK, token);
    t.equal(busy.status, 409);
    t.match(await busy.text(), /Another roster import is running/);

    const applied = await consolePost(browser, `${plan}/apply`, again.html);
    t.equal(applied.status, 303);
    t.equal(location(applied, url).pathname, '/school/north/roster');
    t.equal((await store.findUser(ben!.id))?.familyName, 'Lee', 'applied');
  });
}

t.test('on SQLite', async (t) => {
  await rosterScenario(t, await startLanyard(t));
});

t.test('on Redis', async (t) => {
  const redis = await startRedis(t, { aof: false });
  await rosterScenario(t, await startLanyard(t, { env: redisStoreEnv(redis.url, 'school-roster') }));
});
