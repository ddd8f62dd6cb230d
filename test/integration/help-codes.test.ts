import t from 'tap';
import * as client from 'openid-client';
import { storedId } from '../../adapters/record-ids.js';
import type { AuditEvent, Store } from '../../adapters/store.js';
import { ManualClock } from '../../src/clock.js';
import { alertText, followToCallback } from '../helpers/children.js';
import { giveHelpCode, openHelpCode, postHelpCode, tryHelpCode, useDemoApp } from '../helpers/help-codes.js';
import { HttpBrowser } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { authorizationRequest, DEMO_CLIENT, relyingParty } from '../helpers/relying-party.js';
import { consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';

/**
 * Help codes end to end (docs/childrens-sign-in.md → Help codes, docs/school-console.md → Help codes): a teacher
 * gives one in the console, sees it once, and the pupil signs in with it through the real screens and reaches
 * the app with an ID token; it never works twice; staff list and cancel codes; all of it in the audit trail.
 * On SQLite and on Redis.
 */

/** The school's audit events of `action`, once the recorder has written them (it writes off the request's path). */
async function auditEvents(store: Store, organisationId: string, action: string, count = 1): Promise<AuditEvent[]> {
  for (let i = 0; ; i += 1) {
    const found = (await store.queryAudit({ organisationId, limit: 100 })).filter((e) => e.action === action);
    if (found.length >= count || i === 50) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const backend of ['sqlite', 'redis'] as const) {
  t.test(`${backend}: a teacher gives a help code, the pupil signs in with it once`, async (t) => {
    const clock = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
    const env = backend === 'redis' ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'help-codes') : undefined;
    const lanyard = await startLanyard(t, { clock, ...(env ? { env } : {}) });
    const { url, store } = lanyard;
    const north = await putConsoleSchool(store, 'north');
    await useDemoApp(store, north.organisation.id);
    const pupil = north.taught.pupils[0]!;
    const teacher = await consoleSignInAsStaff(url, north.teacher.credentials, undefined, clock);

    const list = await consolePage(teacher, `${url}/school/north/help-codes`);
    t.equal(list.status, 200);
    t.match(list.html, 'No pupil has a help code now.');

    const given = await giveHelpCode(teacher, url, 'north', pupil.id);
    t.equal(given.posted.status, 303, 'the form answers 303');
    t.match(given.code, /^\d{6}$/, 'the code: 6 digits');
    t.match(given.page, `Help code for ${pupil.givenName} ${pupil.familyName}`);
    t.match(given.page, `Username: <strong>${pupil.username}</strong>`);
    t.match(given.page, 'Works once, until 16:30 today.', 'until the end of the school day (16:30 UTC by default)');
    t.match(given.page, /data-print hidden>Print<\/button>/, 'a Print button (shown by the script)');
    const code = given.code!;
    const again = await teacher.get(given.shown!.url, { accept: 'text/html' });
    t.notMatch(await again.text(), code.slice(0, 3) + ' ' + code.slice(3), 'shown once: not on the page again');
    const stored = await store.findHelpCode(pupil.id, clock.now().toISOString());
    t.ok(stored, 'kept under the pupil');
    t.notMatch(JSON.stringify(stored), code, 'as a hash, never the code');
    t.equal(stored!.expiresAt, '2027-03-10T16:30:00.000Z');
    t.equal(stored!.issuedBy, north.teacher.user.id);

    const listed = await consolePage(teacher, `${url}/school/north/help-codes`);
    t.match(listed.html, `${pupil.givenName} ${pupil.familyName}`, 'listed: who');
    t.match(listed.html, 'Tess Teacher', 'given by');
    t.match(listed.html, '16:30 today', 'until when');

    // The pupil, on another browser, through an app using openid-client.
    const rp = await relyingParty(url);
    const req = await authorizationRequest(rp);
    const browser = new HttpBrowser();
    const step = await openHelpCode(browser, url, 'north', req.url);
    t.match(step.chooser, 'I have a help code', 'the chooser offers it');
    t.equal(step.status, 200);
    t.match(step.page, /inputmode="numeric" autocomplete="one-time-code"/, 'the number pad, and a code the device offers');
    const res = await postHelpCode(browser, url, step, pupil.username, `${code.slice(0, 3)} ${code.slice(3)}`);
    t.equal(res.status, 303, 'signed in (the code typed as printed, with its space)');
    const callback = await followToCallback(browser, url, res);
    t.equal(`${callback.origin}${callback.pathname}`, DEMO_CLIENT.redirectUri, 'back at the app');
    const tokens = await client.authorizationCodeGrant(rp, callback, { expectedNonce: req.nonce, expectedState: req.state, pkceCodeVerifier: req.codeVerifier });
    const claims = tokens.claims()!;
    t.equal(claims.sub, pupil.id, 'the ID token is the pupil\'s');
    t.equal(claims.given_name, pupil.givenName);
    const session = await store.oidc.find('Session', storedId('Session', browser.cookies.get('_session')!));
    t.same(session?.amr, ['otp'], 'the session: a one-time password (RFC 8176 amr)');
    t.ok(lanyard.logs.some((l) => l.includes('"event":"login.succeeded"') && l.includes('"method":"help_code"')), 'logged as a help-code sign-in');
    t.notOk(lanyard.logs.some((l) => l.includes(code)), 'the code is in no log line');

    const second = await tryHelpCode(url, 'north', pupil.username, code);
    t.equal(second.status, 401, 'the code fails a second time');
    const wrong = await tryHelpCode(url, 'north', pupil.username, code === '000000' ? '000001' : '000000');
    t.equal(alertText(await second.text()), alertText(await wrong.text()), 'the same answer as a wrong code');
    t.notMatch((await consolePage(teacher, `${url}/school/north/help-codes`)).html, `${pupil.givenName} ${pupil.familyName}`, 'no longer listed');

    const issued = (await auditEvents(store, north.organisation.id, 'help_code.issued'))[0];
    t.match(issued, { kind: 'credential', actorId: north.teacher.user.id, actorName: 'Tess Teacher', subjectId: pupil.id }, 'help_code.issued in the audit trail');
    // The teacher's own sign-in, the pupil's, and the pupil's failed tries (recorded after their answers).
    const signIns = await auditEvents(store, north.organisation.id, 'sign_in', 3);
    t.match(signIns.find((e) => e.kind === 'sign_in'), { method: 'help_code', subjectId: pupil.id, clientId: DEMO_CLIENT.id, result: 'success' }, 'the sign-in, method help_code');
    t.match(signIns.find((e) => e.kind === 'sign_in_failed'), { method: 'help_code', subjectId: pupil.id, result: 'wrong_credential' }, 'and the failed tries');
    t.notMatch(JSON.stringify(await store.queryAudit({ organisationId: north.organisation.id, limit: 100 })), code, 'no code in the audit trail');
  });

  t.test(`${backend}: who may be given a code, and cancelling one`, async (t) => {
    const clock = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
    const env = backend === 'redis' ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'help-codes-staff') : undefined;
    const lanyard = await startLanyard(t, { clock, ...(env ? { env } : {}) });
    const { url, store } = lanyard;
    const north = await putConsoleSchool(store, 'north');
    await useDemoApp(store, north.organisation.id);
    const teacher = await consoleSignInAsStaff(url, north.teacher.credentials, undefined, clock);
    const [ada, ben] = north.taught.pupils;

    t.equal((await giveHelpCode(teacher, url, 'north', north.other.pupils[0]!.id)).posted.status, 404, 'a teacher: not for a class not theirs');
    await store.setSuspended(ben!.id, clock.now().toISOString());
    const refused = await giveHelpCode(teacher, url, 'north', ben!.id);
    t.equal(refused.posted.status, 400, 'not for a pupil who may not sign in');
    t.match(refused.page, 'cannot sign in at the moment');
    t.notOk(await store.findHelpCode(ben!.id, clock.now().toISOString()), 'nothing stored');

    const first = await giveHelpCode(teacher, url, 'north', ada!.id);
    const second = await giveHelpCode(teacher, url, 'north', ada!.id);
    t.not(first.code, undefined);
    t.equal((await tryHelpCode(url, 'north', ada!.username, first.code!)).status, 401, 'a new code replaces the earlier one');

    const admin = await consoleSignInAsStaff(url, north.admin.credentials, undefined, clock);
    const zoe = north.other.pupils[0]!;
    const personPage = `${url}/school/north/people/${zoe.id}`;
    const person = await consolePage(admin, personPage);
    t.match(person.html, '<h2 id="help-code-heading">Help code</h2>', "the pupil's page in the console has the panel");
    const other = await consolePost(admin, `${url}/school/north/people/${zoe.id}/help-code`, person.html, { next: `/school/north/people/${zoe.id}` });
    t.equal(other.status, 303, 'an admin: for any pupil of the school, from their page');
    const card = await consolePage(admin, `${url}${other.headers.get('location')}`);
    t.match(card.html, `<a href="/school/north/people/${zoe.id}">Done</a>`, 'Done goes back to their page');
    t.match((await consolePage(admin, personPage)).html, `${zoe.givenName} ${zoe.familyName} has a help code from Alex Admin, until 16:30 today.`);
    t.notMatch((await consolePage(admin, `${url}/school/north/people/${north.admin.user.id}`)).html, 'help-code-heading', 'none for oneself');
    const offSite = await consolePost(admin, `${url}/school/north/people/${zoe.id}/help-code`, person.html, { next: 'https://elsewhere.example/' });
    t.equal(new URL(offSite.headers.get('location')!, url).searchParams.get('next'), `/school/north/people/${zoe.id}`, 'a next page outside the school is not followed');
    const all = await consolePage(admin, `${url}/school/north/help-codes`);
    t.match(all.html, `${ada!.givenName} ${ada!.familyName}`);
    t.match(all.html, `${north.other.pupils[0]!.givenName} ${north.other.pupils[0]!.familyName}`, 'the admin sees every class\'s codes');
    const mine = await consolePage(teacher, `${url}/school/north/help-codes`);
    t.notMatch(mine.html, `${north.other.pupils[0]!.givenName} ${north.other.pupils[0]!.familyName}`, 'a teacher: only their classes\'');
    const classB = await consolePage(admin, `${url}/school/north/help-codes?class=${north.other.class.id}`);
    t.notMatch(classB.html, `${ada!.givenName} ${ada!.familyName}`, 'one class\'s codes');
    t.equal((await consolePage(teacher, `${url}/school/north/help-codes?class=${north.other.class.id}`)).status, 404, 'a class not theirs: 404');

    const cancel = await consolePost(admin, `${url}/school/north/people/${ada!.id}/help-code/cancel`, all.html, { next: '/school/north/help-codes' });
    t.equal(cancel.status, 303);
    t.equal(cancel.headers.get('location'), '/school/north/help-codes', 'back to the list');
    const after = await consolePage(admin, `${url}/school/north/help-codes`);
    t.match(after.html, `The help code of ${ada!.givenName} ${ada!.familyName} is cancelled.`);
    t.equal((await tryHelpCode(url, 'north', ada!.username, second.code!)).status, 401, 'a cancelled code fails');
    t.match((await auditEvents(store, north.organisation.id, 'help_code.cancelled'))[0], { actorId: north.admin.user.id, subjectId: ada!.id });
    t.equal((await consolePost(teacher, `${url}/school/north/people/${ada!.id}/help-code`, mine.html.replace(/name="csrf" value="[^"]*"/, 'name="csrf" value="forged"'))).status, 403, 'a forged form is refused');
  });
}
