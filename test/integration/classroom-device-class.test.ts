import t from 'tap';
import { TrustedDevices } from '../../src/accounts/trusted-devices.js';
import { ManualClock } from '../../src/clock.js';
import { putClass } from '../helpers/class-roster.js';
import { tileClass } from '../helpers/class-sign-in.js';
import { HttpBrowser, hiddenField } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { classroomDeviceSignIn } from '../helpers/spray.js';

/**
 * A classroom device's class (docs/childrens-sign-in.md → Class sign-in): chosen on /classroom-device by a member of
 * staff from the classes they may see (a school admin: all the school's), when marking it or afterwards, or
 * "no class"; never another school's class.
 */
t.test('a school admin sets the class of a classroom device when marking it, and changes it afterwards', async (t) => {
  const lanyard = await startLanyard(t);
  const { organisation, class: klass } = await tileClass(lanyard);
  const other = await lanyard.store.upsertOrganisation({ slug: 'other-school', name: 'Other School' });
  const elsewhere = await putClass(lanyard.store, { organisationId: other.id, sourcedId: 'x', title: 'Class Elsewhere', pupils: [], prefix: 'x' });
  const devices = new TrustedDevices(lanyard.store, new ManualClock());
  const browser = new HttpBrowser();

  let page = await classroomDeviceSignIn(browser, lanyard.url);
  t.match(page, /<select id="class-id" name="classId"/, 'the marking form asks which class uses the device');
  t.match(page, new RegExp(`<option value="${klass.id}">Class Kestrel</option>`), 'offering the school’s class');
  t.match(page, /<option value="" selected>No class/, 'or no class, at first');
  t.notMatch(page, /Class Elsewhere/, 'never another school’s');

  const refused = await browser.post(`${lanyard.url}/classroom-device`, { csrf: hiddenField(page, 'csrf'), name: 'Cart 1', classId: elsewhere.class.id });
  t.equal(refused.status, 400, 'another school’s class is refused');
  t.match(await refused.text(), /Choose one of your classes/);
  t.notOk(browser.cookies.has('lanyard_classroom'), 'and nothing was marked');

  const marked = await browser.post(`${lanyard.url}/classroom-device`, { csrf: hiddenField(page, 'csrf'), name: 'Cart 1', classId: klass.id });
  t.equal(marked.status, 303, 'marked with the class');
  t.match(await devices.list(organisation.id), [{ name: 'Cart 1', classId: klass.id }], 'the record names the class');
  page = await (await browser.get(`${lanyard.url}/classroom-device`)).text();
  t.match(page, /shows the names of the class <strong>Class Kestrel<\/strong>/, 'the page says which class');

  page = await classroomDeviceSignIn(browser, lanyard.url);
  t.match(page, new RegExp(`<option value="${klass.id}" selected>Class Kestrel</option>`), 'signed in again: the class is chosen');
  const bad = await browser.post(`${lanyard.url}/classroom-device/class`, { csrf: hiddenField(page, 'csrf'), classId: elsewhere.class.id });
  t.equal(bad.status, 400, 'changing to another school’s class is refused');
  t.match(await devices.list(organisation.id), [{ classId: klass.id }], 'the class stays');
  const forged = await browser.post(`${lanyard.url}/classroom-device/class`, { csrf: 'nope', classId: '' });
  t.equal(forged.status, 403, 'a form without its token is refused');
  const none = await browser.post(`${lanyard.url}/classroom-device/class`, { csrf: hiddenField(page, 'csrf'), classId: '' });
  t.equal(none.status, 303, 'set to no class');
  const [device] = await devices.list(organisation.id);
  t.equal(device!.classId, undefined, 'the record names no class');
  t.match(await (await browser.get(`${lanyard.url}/classroom-device`)).text(), /set to no class: its sign-in screen shows no names/, 'as the page says');

  const anonymous = await new HttpBrowser().post(`${lanyard.url}/classroom-device/class`, { csrf: 'x', classId: klass.id });
  t.equal(anonymous.status, 403, 'nobody signed in cannot set a class');
});
