import t from 'tap';
import { checkAccessibility } from '../helpers/axe.js';
import { browserSetUp, DESKTOP, PHONE, TABLET } from '../helpers/browser-flow.js';
import { openPage, screenshot } from '../helpers/browser.js';
import { TEACHER } from '../helpers/sign-in.js';

t.test('a teacher marks a tablet as a classroom device in Chromium, then stops trusting it', async (t) => {
  const { browser, lanyard } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, TABLET);
  await page.goto(`${lanyard.url}/classroom-device`);
  t.equal(await page.title(), 'Classroom device · Lanyard');
  await screenshot(page, 'classroom-device/01-signed-out-tablet');
  await checkAccessibility(t, page, 'classroom device, signed out');

  const signInAsStaff = async () => {
    await page.getByRole('button', { name: 'Sign in as a member of staff' }).click();
    await page.waitForURL(/\/interaction\//);
    // The first time, the school picker; then the device remembers the school (src/accounts/school-memory.ts).
    if (await page.getByLabel('School name').count()) {
      await page.getByLabel('School name').fill('demo');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: 'Demo School' }).click();
    } else {
      t.ok(await page.getByRole('link', { name: /Not Demo School\? Choose another school/ }).isVisible(), 'the remembered school, with another one offered');
    }
    await page.getByRole('link', { name: /Username and password/ }).click();
    await page.getByLabel('Username').fill(TEACHER.username);
    await page.getByLabel('Password').fill(TEACHER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${lanyard.url}/classroom-device`);
    t.ok(await page.getByText('Signed in as').isVisible(), 'back on the page, signed in');
  };
  await signInAsStaff();
  await screenshot(page, 'classroom-device/02-staff-tablet');
  await checkAccessibility(t, page, 'classroom device, staff');
  t.notMatch(await page.locator('main').innerText(), /lanyard devices|\(teacher\)/, 'no command line, no username: words a teacher uses');

  // Changing one's mind: signed out again at once, the device unchanged.
  await page.getByRole('button', { name: 'Cancel and sign out' }).click();
  await page.waitForURL(`${lanyard.url}/classroom-device`);
  t.notOk(await page.getByText('Signed in as').count(), 'cancelled: signed out, nothing marked');
  t.notOk((await page.context().cookies()).some((c) => c.name === 'lanyard_classroom'), 'no credential');
  await signInAsStaff();

  await page.getByLabel('A name for this device').fill('Year 2 tablet 4');
  await page.getByRole('button', { name: /Mark as a classroom device of Demo School/ }).click();
  await page.waitForURL(`${lanyard.url}/classroom-device`);
  t.match(await page.getByRole('status').innerText(), /classroom device of Demo School: “Year 2 tablet 4”/);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'lanyard_classroom');
  t.ok(cookie?.httpOnly && cookie.sameSite === 'Lax', 'the credential is an HttpOnly, SameSite cookie');
  t.notOk(await page.getByText('Signed in as').count(), 'the teacher was signed out again: no pupil inherits the sign-in');
  await screenshot(page, 'classroom-device/03-marked-tablet');
  await checkAccessibility(t, page, 'classroom device, marked');
  for (const [size, options] of [['phone', PHONE], ['chromebook', DESKTOP]] as const) {
    const other = await openPage(t, browser, { ...options, storageState: await page.context().storageState() });
    await other.page.goto(`${lanyard.url}/classroom-device`);
    await screenshot(other.page, `classroom-device/04-marked-${size}`);
  }

  await signInAsStaff();
  await page.getByRole('button', { name: 'Stop trusting this device' }).click();
  await page.waitForURL(`${lanyard.url}/classroom-device`);
  t.notOk(await page.getByRole('status').count(), 'no longer a classroom device');
  t.notOk((await page.context().cookies()).some((c) => c.name === 'lanyard_classroom'), 'its credential is gone');
  t.same(problems, [], 'no console errors or failed requests');
});
