import { randomBytes } from 'node:crypto';
import t from 'tap';
import { issueTicket } from '../../interactions/badge-ticket.js';
import { csrfToken } from '../../src/web/csrf.js';
import {
  EMOJI_KID, exchange, followToCallback, HttpBrowser, idTokenClaims, openMethod, postBadge,
} from '../helpers/children.js';
import { writeConfig } from '../helpers/config-file.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * docs/security.md → Cookie keys: rotate LANYARD_COOKIE_KEYS by putting a new key first; the others are still
 * accepted. That holds for everything signed with them: oidc-provider's cookies (the interaction and its
 * resume cookie), the forms' CSRF tokens and the badge tickets. A sign-in opened before the rotation
 * finishes after it; what was signed only with a key that is no longer configured is refused.
 */

const key = () => randomBytes(32).toString('base64url');
const OLD = key();
const NEW = key();

interface Restartable { (keys: string[]): Promise<Lanyard> }

/** Lanyard on one data directory and port, restarted with other cookie keys each time. */
function restartable(t: Parameters<typeof startLanyard>[0], config?: string): Restartable {
  let current: Lanyard | undefined;
  return async (keys) => {
    const place = current ? { dir: current.dir, port: Number(new URL(current.url).port) } : {};
    await current?.stop();
    current = await startLanyard(t, { ...place, env: { LANYARD_COOKIE_KEYS: keys.join(','), ...(config ? { LANYARD_CONFIG: config } : {}) } });
    return current;
  };
}

const postPassword = (browser: HttpBrowser, issuer: string, step: { uid: string; org: string }, csrf: string) =>
  browser.post(`${issuer}/interaction/${step.uid}/password`, { csrf, org: step.org, username: TEACHER.username, password: TEACHER.password });

t.test('a login form opened before a cookie-key rotation signs in after it', async (t) => {
  const run = restartable(t);

  let lanyard = await run([OLD]);
  const before = new HttpBrowser();
  const opened = await openMethod(before, lanyard.url, 'password');
  t.equal(opened.status, 200);
  const forgotten = new HttpBrowser();
  const forgottenStep = await openMethod(forgotten, lanyard.url, 'password');

  // Rotation: the new key in front, the old one still listed.
  lanyard = await run([NEW, OLD]);
  const res = await postPassword(before, lanyard.url, opened, opened.csrf);
  t.equal(res.status, 303, 'the form opened under the old key signs in');
  const callback = await followToCallback(before, lanyard.url, res);
  t.equal(`${callback.origin}${callback.pathname}`, 'http://localhost:8080/callback', 'back at the app (the interaction and resume cookies, signed with the old key, were accepted)');
  const claims = idTokenClaims(await exchange(lanyard.url, callback));
  t.equal(claims.given_name, 'Tess', 'the code exchanges for the teacher\'s ID token');

  const after = new HttpBrowser();
  const fresh = await openMethod(after, lanyard.url, 'password');
  t.equal(fresh.csrf, csrfToken([NEW], fresh.uid), 'new forms are signed with the new key');
  t.not(fresh.csrf, csrfToken([OLD], fresh.uid));

  // The old key dropped: what only it signed is refused, with the friendly pages.
  lanyard = await run([NEW]);
  const stale = await postPassword(after, lanyard.url, fresh, csrfToken([OLD], fresh.uid));
  t.equal(stale.status, 403, 'a CSRF token signed with a key no longer configured is refused');
  const page = await stale.text();
  t.match(page, /This form has expired/);
  t.match(stale.headers.get('content-type'), /text\/html/);
  t.match(page, '<a class="button-link" href="/"><span>Go to your school apps</span></a>', 'with a way on');
  const good = await postPassword(after, lanyard.url, fresh, fresh.csrf);
  t.equal(good.status, 303, 'the same form with its own token (new key) still signs in');

  const gone = await postPassword(forgotten, lanyard.url, forgottenStep, forgottenStep.csrf);
  t.equal(gone.status, 400, 'a sign-in whose cookies only the dropped key signed has expired');
  t.match(await gone.text(), /start again/i);
});

t.test('a badge ticket handed out before a rotation is redeemed after it', async (t) => {
  const config = writeConfig((c) => {
    const org = c.organisations![0]!;
    org.badge_requires_emoji = true;
    org.users!.find((u) => u.username === EMOJI_KID.username)!.badge_code = 'EEEE-EEEE-EEEE-EEEE-EEEE-EEEE-EE';
  });
  const run = restartable(t, config);
  const badgeThenEmoji = async (browser: HttpBrowser, issuer: string) => {
    const step = await openMethod(browser, issuer, 'badge');
    const afterBadge = await postBadge(browser, issuer, step, 'EEEE-EEEE-EEEE-EEEE-EEEE-EEEE-EE');
    t.equal(afterBadge.status, 303, 'the badge is accepted; now the pictures');
    return { step, ticket: browser.cookies.get('lanyard_badge_ticket')! };
  };
  const postPictures = (browser: HttpBrowser, issuer: string, step: { uid: string; csrf: string }, ticket: string) => {
    browser.cookies.set('lanyard_badge_ticket', ticket);
    return browser.post(`${issuer}/interaction/${step.uid}/badge/emoji`, {
      csrf: step.csrf, org: 'demo-school', emoji: EMOJI_KID.emoji.join(','), go: '1',
    });
  };

  let lanyard = await run([OLD]);
  const before = new HttpBrowser();
  const handedOut = await badgeThenEmoji(before, lanyard.url);

  lanyard = await run([NEW, OLD]);
  const res = await postPictures(before, lanyard.url, handedOut.step, handedOut.ticket);
  t.equal(res.status, 303, 'the ticket (and CSRF token) signed with the old key still work');
  const claims = idTokenClaims(await exchange(lanyard.url, await followToCallback(before, lanyard.url, res)));
  t.equal(claims.given_name, 'Emmy');

  const after = new HttpBrowser();
  const current = await badgeThenEmoji(after, lanyard.url);
  lanyard = await run([NEW]);
  const [userId, expires] = current.ticket.split('.');
  const oldTicket = issueTicket([OLD], current.step.uid, userId!, Number(expires) - 5 * 60_000);
  t.equal(oldTicket.split('.').slice(0, 2).join('.'), current.ticket.split('.').slice(0, 2).join('.'), 'the same ticket but for its signature');
  const refused = await postPictures(after, lanyard.url, current.step, oldTicket);
  t.equal(refused.status, 400, 'a ticket signed with a key no longer configured is refused');
  t.match(await refused.text(), /Show your badge again/);
  t.equal((await postPictures(after, lanyard.url, current.step, current.ticket)).status, 303, 'its genuine ticket still works');
});
