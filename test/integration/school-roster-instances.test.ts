import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { rosterUploadsFolder } from '../../src/school/roster-upload-folder.js';
import { location } from '../helpers/http-browser.js';
import { type Backend, onInstance, startPair } from '../helpers/instances.js';
import { tempDir } from '../helpers/roster-files.js';
import { consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';
import { schoolExportZip, uploadRoster } from '../helpers/school-roster.js';

/**
 * A roster upload received by one instance and applied through another on the same store and data directory,
 * as the worker processes of one machine take a console session's requests in turn (docs/school-console.md →
 * The roster): the plan is shown, applied and discarded from any of them, and the file goes once applied.
 */

async function twoInstances(t: Test, backend: Backend): Promise<void> {
  const { a, b, issuer, storeUrl } = await startPair(t, backend);
  const ours = [issuer, a.origin, b.origin];
  const north = await putConsoleSchool(a.store, 'north');
  const dir = tempDir(t);
  const browser = await consoleSignInAsStaff(issuer, north.admin.credentials);
  const folder = rosterUploadsFolder(storeUrl);

  /** Uploads `name` on A; returns its plan's address on B. */
  const uploadOnA = async (name: string, add: { username: string; given: string; family: string; klass: 'a' | 'b' }[]) => {
    const zip = await schoolExportZip(dir, name, north, { add });
    const page = await consolePage(browser, `${a.origin}/school/north/roster`);
    const res = await uploadRoster(browser, a.origin, 'north', page.html, zip);
    t.equal(res.status, 303, 'A took the upload');
    const plan = onInstance(location(res, a.origin), b, ours).toString();
    t.match(plan, new RegExp(`^${b.origin}/school/north/roster/plans/[\\w-]{22}$`));
    return { plan, id: plan.split('/').pop()! };
  };

  const first = await uploadOnA('first', [{ username: 'north-new1', given: 'Nia', family: 'Newcomer', klass: 'a' }]);
  t.ok(existsSync(join(folder, first.id)), 'the file is in the machine\'s uploads folder');
  const shown = await consolePage(browser, first.plan);
  t.equal(shown.status, 200, 'B shows the plan A made');
  t.match(shown.html, /first\.zip<\/strong>/);
  t.match(shown.html, /north-new1/);
  const roster = await consolePage(browser, `${b.origin}/school/north/roster`);
  t.match(roster.html, /Your upload <strong>first\.zip<\/strong> is waiting/, 'B says it is waiting');
  const applied = await consolePost(browser, `${first.plan}/apply`, shown.html);
  t.equal(applied.status, 303, 'B applies it');
  t.equal(location(applied, b.origin).pathname, '/school/north/roster');
  t.ok(await b.store.findUserByUsername(north.organisation.id, 'north-new1'), 'applied');
  t.notOk(existsSync(join(folder, first.id)), 'the file is gone once applied');
  t.equal((await consolePage(browser, onInstance(first.plan, a, ours).toString())).status, 404, 'for A too');

  const second = await uploadOnA('second', [{ username: 'north-new2', given: 'Ned', family: 'Newman', klass: 'b' }]);
  const page = await consolePage(browser, second.plan);
  const discarded = await consolePost(browser, `${second.plan}/discard`, page.html);
  t.equal(discarded.status, 303, 'B discards it');
  t.notOk(existsSync(join(folder, second.id)), 'and its file');
  t.equal((await consolePage(browser, onInstance(second.plan, a, ours).toString())).status, 404, 'gone for A');
  t.equal(await a.store.findUserByUsername(north.organisation.id, 'north-new2'), undefined, 'nothing applied');
}

t.test('on SQLite: upload on one instance, apply and discard on another', async (t) => twoInstances(t, 'sqlite'));
t.test('on Redis: upload on one instance, apply and discard on another', async (t) => twoInstances(t, 'redis'));
