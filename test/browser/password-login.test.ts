import t from 'tap';
import type { Page } from 'playwright-core';
import { checkAccessibility } from '../helpers/axe.js';
import { assertSignedIn, browserSetUp, DESKTOP, PHONE } from '../helpers/browser-flow.js';
import { answerCallback, focused, launchBrowser, openPage, screenshot, tabTo } from '../helpers/browser.js';
import { screenshotAndCheck } from '../helpers/page-check.js';
import { DEMO_CLIENT } from '../helpers/relying-party.js';
import { TEACHER } from '../helpers/sign-in.js';




const heading = (page: Page) => page.getByRole('heading', { level: 1 }).innerText();

t.test('password sign-in in Chromium: organisation search, a wrong password, then the right one', async (t) => {
  const { rp, req, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, DESKTOP);
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);

  await page.goto(req.url.href);
  t.match(new URL(page.url()).pathname, /^\/interaction\/[\w-]+$/, 'authorize hands over to the hosted login');
  t.equal(await heading(page), 'Find your school', 'organisation picker first (the app named no organisation)');
  t.equal(await page.title(), 'Choose your school · Lanyard');
  await screenshot(page, 'password-login/01-organisation-picker');
  await checkAccessibility(t, page, 'organisation picker');

  await page.getByLabel('School name').fill('demo');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/[?&]q=demo/);
  const schools = page.getByRole('list', { name: 'Schools' }).getByRole('link');
  t.same(await schools.allInnerTexts(), ['Demo School'], 'searching "demo" finds Demo School');
  await screenshot(page, 'password-login/02-search-results');
  await checkAccessibility(t, page, 'search results');

  await page.getByRole('link', { name: 'Demo School' }).click();
  await page.waitForURL(/[?&]org=/);
  t.equal(await heading(page), 'Demo School', 'the chosen school');
  t.equal(await page.title(), 'Sign in to Demo School · Lanyard');
  t.ok(await page.getByText('How do you sign in?').isVisible(), 'asks how to sign in (the demo school offers several ways)');
  await screenshot(page, 'password-login/03-method-chooser');
  await checkAccessibility(t, page, 'method chooser');

  await page.getByRole('link', { name: /Username and password/ }).click();
  await page.waitForURL(/\/password\?org=/);
  t.equal(await heading(page), 'Demo School', 'password form for the chosen school');
  t.match(await focused(page), { tag: 'input', name: 'Username' }, 'username field has focus');
  await screenshot(page, 'password-login/04-password-form');
  await checkAccessibility(t, page, 'password form');

  await page.getByLabel('Username').fill(TEACHER.username);
  await page.getByLabel('Password').fill('not-the-password');
  const [failed] = await Promise.all([
    page.waitForResponse((res) => res.url().endsWith('/password') && res.request().method() === 'POST'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  t.equal(failed.status(), 401, 'wrong password: 401');
  await page.waitForLoadState();
  t.equal(await page.getByRole('alert').innerText(), 'That username and password do not match. Check them and try again.',
    'a generic error, announced as an alert');
  t.equal(await page.getByLabel('Username').inputValue(), TEACHER.username, 'username kept');
  t.equal(await page.getByLabel('Password').inputValue(), '', 'password not echoed back');
  t.match(await focused(page), { tag: 'input', name: 'Password' }, 'focus on the password field');
  await screenshot(page, 'password-login/05-wrong-password');
  await checkAccessibility(t, page, 'password form with an error');

  await page.getByLabel('Password').fill(TEACHER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await assertSignedIn(t, rp, req, await callback(), { givenName: 'Tess', type: 'employee' });
  t.same(problems, [], 'no console errors (CSP violations, script errors, failed loads) on the way');
});

t.test('password sign-in with the keyboard only: Tab, typing and Enter, no clicks', async (t) => {
  const { rp, req, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, DESKTOP);
  const callback = await answerCallback(page, DEMO_CLIENT.redirectUri);

  await page.goto(req.url.href);
  t.match(await focused(page), { tag: 'input', name: 'School name' }, 'the search box has focus on arrival');
  await page.keyboard.type('demo');
  await page.keyboard.press('Enter');
  await page.waitForURL(/[?&]q=demo/);

  const school = await tabTo(page, /^Demo School$/);
  t.match(school, { tag: 'a', focusVisible: true }, 'Tab reaches the Demo School result');
  t.notMatch(school.outline, /^none/, `with a visible focus ring (${school.outline})`);
  await screenshot(page, 'password-login/keyboard-01-result-focused');
  await page.keyboard.press('Enter');
  await page.waitForURL(/[?&]org=/);

  const method = await tabTo(page, /Username and password/);
  t.match(method, { tag: 'a', focusVisible: true }, 'Tab reaches "Username and password"');
  t.notMatch(method.outline, /^none/, `with a visible focus ring (${method.outline})`);
  await screenshot(page, 'password-login/keyboard-02-method-focused');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/password\?org=/);

  t.match(await focused(page), { tag: 'input', name: 'Username' }, 'the username field has focus');
  await page.keyboard.type(TEACHER.username);
  const password = await tabTo(page, /^Password$/, 1);
  t.match(password, { tag: 'input', type: 'password' }, 'one Tab to the password field');
  await page.keyboard.type(TEACHER.password);
  const button = await tabTo(page, /^Sign in$/, 1);
  t.match(button, { tag: 'button', focusVisible: true }, 'one more Tab to the Sign in button');
  t.notMatch(button.outline, /^none/, `with a visible focus ring (${button.outline})`);
  await screenshot(page, 'password-login/keyboard-03-sign-in-focused');
  await page.keyboard.press('Enter');

  await assertSignedIn(t, rp, req, await callback(), { givenName: 'Tess', type: 'employee' });
  t.same(problems, [], 'no console errors');
});

t.test('password form on a small phone (375x667)', async (t) => {
  const { req, browser } = await browserSetUp(t);
  const { page, problems } = await openPage(t, browser, PHONE);

  await page.goto(req.url.href);
  await page.getByLabel('School name').fill('demo');
  await page.getByRole('button', { name: 'Search' }).tap();
  await page.waitForURL(/[?&]q=demo/);
  await screenshot(page, 'password-login/mobile-01-search-results');
  await page.getByRole('link', { name: 'Demo School' }).tap();
  await page.waitForURL(/[?&]org=/);
  await screenshot(page, 'password-login/mobile-02-method-chooser');
  await page.getByRole('link', { name: /Username and password/ }).tap();
  await page.waitForURL(/\/password\?org=/);
  const widths = await screenshotAndCheck(t, page, 'password-login/mobile-03-password-form', 'password form on a phone');
  for (const [name, locator] of [
    ['username field', page.getByLabel('Username')],
    ['password field', page.getByLabel('Password')],
    ['Sign in button', page.getByRole('button', { name: 'Sign in' })],
  ] as const) {
    const box = await locator.boundingBox();
    t.ok(box && box.x >= 0 && box.x + box.width <= widths.device, `${name} fits the screen width`);
    t.ok(box && box.height >= 44, `${name} is a comfortable touch target (${box?.height}px tall)`);
  }
  t.same(problems, [], 'no console errors');
});

t.test('the accessibility check itself: catches serious problems on a page with the same CSP', async (t) => {
  const browser = await launchBrowser(t);
  const { page } = await openPage(t, browser, DESKTOP);
  // Served with Lanyard's policy, so axe must get in despite script-src 'self'.
  await page.route('http://lanyard.test/', (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8',
    headers: { 'Content-Security-Policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'" },
    body: '<!doctype html><html lang="en"><title>Bad</title><main><h1>Bad page</h1>'
      + '<input id="who" type="text"><p style="color:#bbb;background:#fff">faint text</p></main></html>',
  }));
  await page.goto('http://lanyard.test/');
  const results: { ok: boolean; message: string }[] = [];
  const spy = { ok: (value: unknown, message: string) => results.push({ ok: Boolean(value), message }), comment: () => {} };
  await checkAccessibility(spy, page, 'bad page');
  t.equal(results.length, 1);
  t.notOk(results[0]!.ok, 'the check fails');
  t.match(results[0]!.message, /\[critical\] label: .*\n\s+at #who/, 'naming the rule and the element');
  t.match(results[0]!.message, /\[serious\] color-contrast/, 'and the contrast problem');
});
