import type { AuditEvent, Store, User } from '../../adapters/store.js';
import { hashCredential } from '../../src/accounts/credential-hasher.js';
import { HttpBrowser, hiddenField, location } from './http-browser.js';
import type { ConsoleSchool } from './school-console.js';

/**
 * The school's audit trail in tests (docs/school-console.md → Audit and usage): a known set of past events put
 * straight into the store, real sign-ins made through the screens, and the page's rows read back as text.
 */

/** Past days the seeded events fall on (UTC), far from today so that today's figures are the real sign-ins'. */
export const DAYS = { first: '2025-01-06', second: '2025-01-07', third: '2025-01-08' } as const;
/** Events of one pupil on the third day: more than two pages of 50. */
export const MANY = 120;
/** A name that a spreadsheet would run as a formula. */
export const FORMULA_NAME = '=HYPERLINK("http://evil.example/","click")';

const name = (u: User) => `${u.givenName} ${u.familyName}`;

let sequence = 0;
function event(organisationId: string, at: string, o: Partial<AuditEvent>): AuditEvent {
  sequence += 1;
  return { id: `${at}-seed-${String(sequence).padStart(5, '0')}`, organisationId, at, kind: 'sign_in', action: 'sign_in', count: 1, ...o };
}

/**
 * The seeded trail of `school` (and one event of `other`, which must never show): on the first day two sign-ins
 * (Class A's first pupil by emoji into app-maths on a classroom device; Class B's first by badge into
 * app-reading); on the second a merged row of 5 failed emoji sign-ins of Class A's second pupil and a launch of
 * app-reading by Class A's first; on the third MANY emoji resets of Class B's second pupil and an action by a
 * name that looks like a formula.
 */
export async function seedTrail(store: Store, school: ConsoleSchool, other: ConsoleSchool): Promise<void> {
  const org = school.organisation.id;
  const [a1, a2] = school.taught.pupils;
  const [b1, b2] = school.other.pupils;
  const pupil = (u: User) => ({ actorId: u.id, actorName: name(u), subjectId: u.id, subjectName: name(u) });
  const events: AuditEvent[] = [
    event(org, `${DAYS.first}T09:00:00.000Z`, { ...pupil(a1!), method: 'emoji', deviceKind: 'classroom', clientId: 'app-maths', result: 'success', source: '10.0.0.5' }),
    event(org, `${DAYS.first}T10:00:00.000Z`, { ...pupil(b1!), method: 'badge', deviceKind: 'known', clientId: 'app-reading', result: 'success' }),
    event(org, `${DAYS.second}T08:00:00.000Z`, {
      kind: 'sign_in_failed', subjectId: a2!.id, subjectName: name(a2!), method: 'emoji', result: 'wrong_credential', count: 5, aggregate: `seed:${a2!.id}`, source: '10.0.0.9',
    }),
    event(org, `${DAYS.second}T09:00:00.000Z`, { ...pupil(a1!), kind: 'launch', action: 'launch', clientId: 'app-reading' }),
    ...Array.from({ length: MANY }, (_, i) => event(org, `${DAYS.third}T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`, {
      kind: 'credential', action: 'emoji.reset', actorId: school.admin.user.id, actorName: name(school.admin.user), subjectId: b2!.id, subjectName: name(b2!),
    })),
    event(org, `${DAYS.third}T12:00:00.000Z`, { kind: 'console', action: 'staff.granted', actorId: 'operator', actorName: FORMULA_NAME, subjectId: school.teacher.user.id, subjectName: name(school.teacher.user) }),
    event(other.organisation.id, `${DAYS.first}T09:30:00.000Z`, { ...pupil(other.taught.pupils[0]!), method: 'emoji', clientId: 'app-maths', result: 'success' }),
  ];
  await store.appendAudit(events);
}

/** The rows of the page's table, each as its cells' text. */
export function tableRows(html: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)]
    .map((cell) => cell[1]!.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ').trim()));
}

/** The href of the link whose text is `text` on the page (entities decoded). */
export function linkTo(html: string, text: string): string | undefined {
  const m = new RegExp(`<a href="([^"]+)"[^>]*>${text}</a>`).exec(html);
  return m?.[1]?.replace(/&amp;/g, '&');
}

/** Gives a pupil a password (the seeded classes have none), for real sign-ins through the screens. */
export async function givePassword(store: Store, user: User): Promise<string> {
  const password = `${user.username}-secret-9`;
  await store.setCredential(user.id, 'password', await hashCredential(password));
  return password;
}

/**
 * A pupil signs in to the dashboard with their password, getting it wrong once first: one failed and one
 * successful sign-in, both real, through the ordinary screens.
 */
export async function pupilSignsIn(url: string, school: string, username: string, password: string): Promise<{ failed: number; signedIn: number }> {
  const browser = new HttpBrowser();
  const authorize = location(await browser.get(`${url}/sign-in?org=${school}`), url);
  const interaction = location(await browser.get(authorize), url);
  const uid = interaction.pathname.split('/')[2]!;
  const page = await (await browser.get(`${url}/interaction/${uid}/password?org=${school}`)).text();
  const form = { csrf: hiddenField(page, 'csrf'), org: hiddenField(page, 'org'), username };
  const wrong = await browser.post(`${url}/interaction/${uid}/password`, { ...form, password: 'not-the-password' });
  const right = await browser.post(`${url}/interaction/${uid}/password`, { ...form, password });
  return { failed: wrong.status, signedIn: right.status };
}

/** Asks until `check` passes (the trail is written off the request's path), at most a few seconds. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
