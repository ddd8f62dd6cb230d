import type { Test } from 'tap';
import { EMOJI_KID, HttpBrowser, openMethod, postEmoji } from './children.js';
import { hiddenField, location } from './http-browser.js';
import { TEACHER } from './sign-in.js';

const WRONG = ['cat', 'dog', 'cat', 'dog', 'cat', 'dog'];
/** Every account of the demo school, and names that are not there (an attacker cannot tell them apart). */
const ACCOUNTS = [EMOJI_KID.username, 'pupil', 'teacher', 'badge-kid', ...Array.from({ length: 12 }, (_, i) => `kid-${i}`)];

export interface SprayResult { guesses: number; throttled: number; other: number; accounts: number }

/**
 * An attacker spraying wrong emoji passwords at every account of the demo school for `seconds` (bounded), as
 * fast as the server answers, three at a time, changing tactics each guess: keeping one device cookie,
 * dropping it, or starting a fresh browser. From the school's address, or from `addresses` addresses.
 */
export async function spray(issuer: string, o: { seconds: number; addresses: number; school: string }): Promise<SprayResult> {
  const result: SprayResult = { guesses: 0, throttled: 0, other: 0, accounts: ACCOUNTS.length };
  const until = Date.now() + o.seconds * 1000;
  const keeper = new HttpBrowser();
  let n = 0;
  const worker = async () => {
    while (Date.now() < until && n < 5_000) {
      const i = n++;
      const ip = o.addresses === 1 ? o.school : `198.51.100.${(i % o.addresses) + 1}`;
      const headers = { 'x-forwarded-for': ip };
      const browser = i % 3 === 0 ? keeper : new HttpBrowser();
      try {
        const step = await openMethod(browser, issuer, 'emoji', 'demo-school', headers);
        if (i % 3 === 1) browser.cookies.delete('lanyard_device');
        const res = await postEmoji(browser, issuer, step, ACCOUNTS[i % ACCOUNTS.length]!, WRONG, {}, headers);
        await res.arrayBuffer();
        if (res.status === 401) result.guesses += 1;
        else if (res.status === 429) result.throttled += 1;
        else result.other += 1;
      } catch {
        result.other += 1; // e.g. the login screen itself refused
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return result;
}

/** A member of staff signs in on `browser` at /classroom-device: the page then shown (with its form). */
export async function classroomDeviceSignIn(browser: HttpBrowser, issuer: string): Promise<string> {
  let to = location(await browser.get(`${issuer}/classroom-device/sign-in`), issuer);
  for (let hops = 0; to.pathname !== '/classroom-device' && hops < 12; hops += 1) {
    if (/^\/interaction\/[^/]+$/.test(to.pathname) && !to.searchParams.has('org')) to.searchParams.set('org', 'demo-school');
    const res = await browser.get(to);
    if (res.status === 303) { to = location(res, issuer); continue; }
    const page = await res.text();
    // A classroom device set to a class shows its name tiles first: staff sign in "another way".
    const otherWay = /href="(\/interaction\/[^"]+\?org=[^"]+way=any)"/.exec(page)?.[1];
    if (otherWay && !page.includes('name="password"')) { to = new URL(otherWay.replace(/&amp;/g, '&'), issuer); continue; }
    const passwordLink = /href="(\/interaction\/[^"]+\/password\?org=[^"]+)"/.exec(page)?.[1];
    if (!page.includes('name="password"') && passwordLink) { to = new URL(passwordLink.replace(/&amp;/g, '&'), issuer); continue; }
    const uid = to.pathname.split('/')[2]!;
    const posted = await browser.post(`${issuer}/interaction/${uid}/password`, {
      csrf: hiddenField(page, 'csrf'), org: hiddenField(page, 'org'), username: TEACHER.username, password: TEACHER.password,
    });
    to = location(posted, issuer);
  }
  if (to.searchParams.has('code')) to = location(await browser.get(to), issuer);
  return (await browser.get(to)).text();
}

/** A member of staff signs in on `browser` and marks it as a classroom device of the demo school. */
export async function markClassroomDevice(t: Test, browser: HttpBrowser, issuer: string, name = 'Cart 1'): Promise<void> {
  const page = await classroomDeviceSignIn(browser, issuer);
  t.match(page, /Mark as a classroom device of/, 'the teacher is offered to mark the device');
  const marked = await browser.post(`${issuer}/classroom-device`, { csrf: hiddenField(page, 'csrf'), name });
  t.equal(marked.status, 303, 'marked (303 after the post)');
  t.ok(browser.cookies.has('lanyard_classroom'), 'the device holds its credential');
  t.match(await (await browser.get(`${issuer}/classroom-device`)).text(), new RegExp(`classroom device of <strong>Demo School</strong>:\\s+“${name}”`));
}
