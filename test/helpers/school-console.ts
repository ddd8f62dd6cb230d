import type { Organisation, StaffRole, Store, User } from '../../adapters/store.js';
import { newId } from '../../adapters/store/ids.js';
import { hashCredential } from '../../src/accounts/credential-hasher.js';
import { putClass, PUPIL_NAMES, type TestClass } from './class-roster.js';
import { HttpBrowser, hiddenField, location } from './http-browser.js';
import { type Credentials, signIn } from './sign-in.js';

/**
 * The school console in tests: schools with staff and classes put straight into a store, and members of staff
 * signed in to /school over real HTTP through the ordinary sign-in screens (src/school/sign-in-routes.ts).
 */

/** A member of staff: their user and how they sign in (username and password at their school). */
export interface Staff {
  user: User;
  credentials: Credentials;
}

/** A school with an admin, a teacher of one class, a second class nobody here teaches, and pupils. */
export interface ConsoleSchool {
  organisation: Organisation;
  admin: Staff;
  teacher: Staff;
  /** Taught by `teacher`. */
  taught: TestClass;
  /** Not taught by `teacher` (an admin sees it). */
  other: TestClass;
}

/** A user with a password at the school (argon2id, as every password is stored). */
export async function putStaffUser(store: Store, organisation: Organisation, username: string, given: string, family: string, type = 'teacher'): Promise<Staff> {
  const user = await store.upsertUser({ id: newId('u'), organisationId: organisation.id, username, givenName: given, familyName: family, type });
  const password = `${username}-password-1`;
  await store.setCredential(user.id, 'password', await hashCredential(password));
  return { user, credentials: { username, password, organisation: organisation.slug } };
}

/** Grants a console role, as the operator does (`lanyard staff grant`). */
export async function grantRole(store: Store, organisationId: string, userId: string, role: StaffRole): Promise<void> {
  await store.putStaffGrant({ organisationId, userId, role, source: 'operator', grantedAt: new Date().toISOString() });
}

/**
 * A school (slug given) with an admin (`<slug>-admin`), a teacher (`<slug>-teacher`) enrolled as teacher of
 * class A, and classes A and B of four pupils each (usernames `<slug>-a1`…, `<slug>-b1`…).
 */
export async function putConsoleSchool(store: Store, slug: string, name = `School ${slug}`): Promise<ConsoleSchool> {
  const organisation = await store.upsertOrganisation({ slug, name, login: { methods: ['password', 'emoji', 'badge'], badgeRequiresEmoji: false } });
  const admin = await putStaffUser(store, organisation, `${slug}-admin`, 'Alex', 'Admin', 'admin');
  const teacher = await putStaffUser(store, organisation, `${slug}-teacher`, 'Tess', 'Teacher');
  await grantRole(store, organisation.id, admin.user.id, 'admin');
  const taught = await putClass(store, {
    organisationId: organisation.id, sourcedId: `${slug}-class-a`, title: 'Class A', pupils: PUPIL_NAMES.slice(0, 4), prefix: `${slug}-a`,
    others: [{ user: teacher.user, role: 'teacher' }],
  });
  const other = await putClass(store, { organisationId: organisation.id, sourcedId: `${slug}-class-b`, title: 'Class B', pupils: PUPIL_NAMES.slice(4, 8), prefix: `${slug}-b` });
  return { organisation, admin, teacher, taught, other };
}

/**
 * Signs a member of staff in to the console through the sign-in screens, as a browser without JavaScript
 * would: /school/sign-in → the sign-in screens → /school/sign-in/done. Returns the browser and the answer of
 * /school/sign-in/done (a 303 to the console, or to its second step).
 */
export async function consoleSignIn(issuer: string, who: Credentials, browser = new HttpBrowser(), next?: string): Promise<{ browser: HttpBrowser; done: Response }> {
  const start = await browser.get(`${issuer}/school/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  const authorize = location(start, issuer);
  const back = await signIn(browser, issuer, authorize, who);
  if (back.pathname !== '/school/sign-in/done') throw new Error(`the sign-in ended at ${back.pathname}, not the console`);
  return { browser, done: await browser.get(back) };
}

/** GETs a console page and returns its HTML and status (the page must not redirect). */
export async function consolePage(browser: HttpBrowser, url: string): Promise<{ status: number; html: string }> {
  const res = await browser.get(url, { accept: 'text/html' });
  return { status: res.status, html: await res.text() };
}

/** POSTs a console form with the page's CSRF token (taken from `page`). */
export async function consolePost(browser: HttpBrowser, url: string, page: string, form: Record<string, string> = {}): Promise<Response> {
  return browser.post(url, { csrf: hiddenField(page, 'csrf'), ...form });
}

/**
 * Signs a member of staff in to the console and follows it to their first page. Someone without a second
 * factor who needs none (a teacher) lands in the console; this fails for a step it does not take.
 */
export async function consoleSignInAsStaff(issuer: string, who: Credentials, browser = new HttpBrowser()): Promise<HttpBrowser> {
  const { done } = await consoleSignIn(issuer, who, browser);
  if (done.status !== 303) throw new Error(`the console's sign-in answered ${done.status}`);
  const to = location(done, issuer);
  if (!to.pathname.startsWith('/school') || to.pathname.startsWith('/school/sign-in')) throw new Error(`the sign-in went on to ${to.pathname}`);
  return browser;
}
