import type { AuditEvent, Organisation, StaffRole, Store, User } from '../../adapters/store.js';
import type { Lanyard } from './lanyard.js';
import { newId } from '../../adapters/store/ids.js';
import { hashCredential } from '../../src/accounts/credential-hasher.js';
import { type Clock, systemClock } from '../../src/clock.js';
import { putClass, PUPIL_NAMES, type TestClass } from './class-roster.js';
import { freshTotpCode } from './developer.js';
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

/** What setting up two-step sign-in in the console gave: the TOTP secret and the ten recovery codes. */
export interface ConsoleTwoStep {
  secret: string;
  recoveryCodes: string[];
}

/** The TOTP secrets of staff who set up two-step sign-in through these helpers, by Lanyard and person. */
const secrets = new Map<string, string>();
const personKey = (issuer: string, who: Credentials) => `${issuer}|${who.organisation ?? ''}|${who.username}`;

/** The TOTP secret a member of staff set up through these helpers (undefined when none). */
export const consoleTotpSecret = (issuer: string, who: Credentials): string | undefined => secrets.get(personKey(issuer, who));

/**
 * Sets up two-step sign-in for the browser's member of staff, as a person does at /school/account/two-step
 * right after signing in (no password asked then): the QR page's key, a fresh code, the recovery codes page.
 * `who`: remembered, so that later sign-ins through consoleSignInAsStaff take the second step.
 */
export async function setUpConsoleTwoStep(
  issuer: string, browser: HttpBrowser, o: { who?: Credentials | undefined; confirm?: string; clock?: Clock } = {},
): Promise<ConsoleTwoStep> {
  const intro = await consolePage(browser, `${issuer}/school/account/two-step`);
  if (intro.status !== 200) throw new Error(`the two-step set-up answered ${intro.status}`);
  let res = await consolePost(browser, `${issuer}/school/account/two-step/start`, intro.html, o.confirm === undefined ? {} : { confirm: o.confirm });
  if (res.status !== 303) throw new Error(`starting the two-step set-up answered ${res.status}`);
  const setup = await consolePage(browser, `${issuer}/school/account/two-step`);
  const secret = /id="totp-secret">([A-Z2-7 ]+)</.exec(setup.html)?.[1]?.replace(/ /g, '');
  if (!secret) throw new Error('no TOTP secret on the set-up page');
  res = await consolePost(browser, `${issuer}/school/account/two-step`, setup.html, { code: await freshTotpCode(secret, o.clock) });
  if (res.status !== 303) throw new Error(`confirming the two-step set-up answered ${res.status}`);
  const codesPage = (await consolePage(browser, location(res, issuer).toString())).html;
  const recoveryCodes = /id="recovery-codes">([^<]*)</.exec(codesPage)?.[1]?.trim().split('\n') ?? [];
  if (recoveryCodes.length !== 10) throw new Error('no recovery codes shown');
  if (o.who) secrets.set(personKey(issuer, o.who), secret);
  return { secret, recoveryCodes };
}

/** Posts a code (TOTP or recovery) at the second step of the browser's half-done sign-in. */
export async function consoleSecondStep(issuer: string, browser: HttpBrowser, code: string): Promise<Response> {
  const page = await consolePage(browser, `${issuer}/school/sign-in/second-step`);
  if (page.status !== 200) throw new Error(`the second step answered ${page.status}`);
  return consolePost(browser, `${issuer}/school/sign-in/second-step`, page.html, { code });
}

/**
 * Signs a member of staff in to the console and follows it to their first page, taking the second step the
 * way the person must: a fresh TOTP code when they set up two-step sign-in through these helpers; setting it
 * up first for a school admin who has none (docs/school-console.md → Signing in and your account). This fails
 * for a step it cannot take. `clock`: the Lanyard's, when it is not the system's (TOTP codes are of its time).
 */
export async function consoleSignInAsStaff(issuer: string, who: Credentials, browser = new HttpBrowser(), clock: Clock = systemClock): Promise<HttpBrowser> {
  const { done } = await consoleSignIn(issuer, who, browser);
  if (done.status !== 303) throw new Error(`the console's sign-in answered ${done.status}`);
  let to = location(done, issuer);
  if (to.pathname === '/school/sign-in/second-step') {
    const secret = consoleTotpSecret(issuer, who);
    if (!secret) throw new Error('the console asks for a second step these helpers did not set up');
    const res = await consoleSecondStep(issuer, browser, await freshTotpCode(secret, clock));
    if (res.status !== 303) throw new Error(`the second step answered ${res.status}`);
    to = location(res, issuer);
  }
  if (to.pathname === '/school/account/two-step') await setUpConsoleTwoStep(issuer, browser, { who, clock });
  else if (!to.pathname.startsWith('/school') || to.pathname.startsWith('/school/sign-in')) throw new Error(`the sign-in went on to ${to.pathname}`);
  return browser;
}

/** The school's audit events with this action, once what the recorder holds is written (it writes off the request's path). */
export async function auditEvents(lanyard: Pick<Lanyard, 'audit' | 'store'>, organisationId: string, action: string): Promise<AuditEvent[]> {
  await lanyard.audit.flush();
  return (await lanyard.store.queryAudit({ organisationId, limit: 500 })).filter((e) => e.action === action);
}
