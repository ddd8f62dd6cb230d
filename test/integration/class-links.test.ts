import t from 'tap';
import { ClassLinkService } from '../../src/accounts/class-links.js';
import { ManualClock } from '../../src/clock.js';
import { writeConfig } from '../helpers/config-file.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { redisStoreEnv, startRedis } from '../helpers/redis-server.js';
import { auditEvents, consolePage, consolePost, consoleSignInAsStaff, putConsoleSchool } from '../helpers/school-console.js';

/**
 * Class links over HTTP (docs/school-console.md → Class links, docs/childrens-sign-in.md → Class links): a
 * teacher of the class (or a school admin) makes one in the console and sees its code once; a pupil's browser
 * opens it typed any way or from the link, and is sent to the school's sign-in holding the class-link cookie;
 * a revoked or expired link opens nothing, and the cookie of a revoked one names no live link. On SQLite and Redis.
 */

/** The code on the card shown once: `ABCDE-FGHJK`. */
const cardCode = (page: string): string | undefined => /<p class="help-code-digits class-link-code"><span aria-hidden="true">([0-9A-Z]{5}-[0-9A-Z]{5})<\/span>/.exec(page)?.[1];

/** Opens the code typed into the /class form, on `browser`. */
async function typeCode(browser: HttpBrowser, url: string, typed: string): Promise<Response> {
  const form = await browser.get(`${url}/class`, { accept: 'text/html' });
  t.equal(form.status, 200);
  return browser.post(`${url}/class`, { csrf: hiddenField(await form.text(), 'csrf'), code: typed });
}

for (const backend of ['sqlite', 'redis'] as const) {
  t.test(`${backend}: a teacher makes a class link, shown once; pupils open it until it is revoked or ends`, async (t) => {
    const clock = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
    const env = backend === 'redis' ? redisStoreEnv((await startRedis(t, { aof: false })).url, 'class-links') : undefined;
    const lanyard = await startLanyard(t, { clock, ...(env ? { env } : {}) });
    const { url, store } = lanyard;
    const north = await putConsoleSchool(store, 'north');
    const south = await putConsoleSchool(store, 'south');
    const classUrl = `${url}/school/north/classes/${north.taught.class.id}`;
    const teacher = await consoleSignInAsStaff(url, north.teacher.credentials, undefined, clock);

    const page = await consolePage(teacher, classUrl);
    t.equal(page.status, 200);
    t.match(page.html, '<h2 id="class-link">Class link</h2>', 'the class page has the panel');
    t.match(page.html, 'No class link is live now.');
    t.match(page.html, /name="length" value="hour" id="class-link-hour" checked/, 'an hour by default');
    t.match(page.html, 'Until the end of the school day');

    const refused = await consolePost(teacher, `${classUrl}/class-links`, page.html, { length: 'a-week' });
    t.equal(refused.status, 400, 'a length not offered is refused');
    const made = await consolePost(teacher, `${classUrl}/class-links`, page.html, { length: 'school_day' });
    t.equal(made.status, 303, 'made: 303');
    const shownAt = location(made, url);
    t.equal(shownAt.pathname, `/school/north/classes/${north.taught.class.id}/class-link`);
    const card = await consolePage(teacher, shownAt.href);
    const code = cardCode(card.html)!;
    t.ok(code, `the code, large: ${code}`);
    const bare = code.replace('-', '');
    t.match(card.html, `<p class="class-link-url">${url}/class/${bare}</p>`, 'the link');
    t.match(card.html, /<div class="class-link-qr" role="img" aria-label="[^"]+"><svg /, 'its QR code, as SVG');
    t.match(card.html, 'Works until 16:30 today.', 'until the end of the school day (16:30 UTC by default)');
    t.match(card.html, /data-print hidden>Print<\/button>/, 'a Print button (shown by the script)');
    const again = await consolePage(teacher, shownAt.href);
    t.notMatch(again.html, code, 'shown once: not on the page again');
    t.match(again.html, 'shown only once');
    const back = await consolePage(teacher, classUrl);
    t.notMatch(back.html, code, 'nor on the class page');
    t.notMatch(back.html, bare);
    t.match(back.html, 'Tess Teacher', 'listed: made by');
    t.match(back.html, '16:30 today', 'until');

    const [link] = await store.listClassLinks(north.organisation.id, north.taught.class.id, clock.now().toISOString());
    t.ok(link, 'kept');
    t.notMatch(JSON.stringify(link), bare, 'as a keyed hash, never the code');
    t.equal(link!.expiresAt, '2027-03-10T16:30:00.000Z');
    t.same(link!.createdBy, { id: north.teacher.user.id, username: north.teacher.user.username });
    const created = await auditEvents(lanyard, north.organisation.id, 'class_link.created');
    t.match(created, [{ kind: 'console', actorId: north.teacher.user.id, classId: north.taught.class.id, detail: { link: link!.id, length: 'school_day' } }], 'in the audit trail');
    t.notMatch(JSON.stringify(created), bare, 'without the code');

    // Not theirs: a teacher of another class, an admin of another school.
    t.equal((await consolePage(teacher, `${url}/school/north/classes/${north.other.class.id}`)).status, 404, "another class's page: 404");
    t.equal((await consolePost(teacher, `${url}/school/north/classes/${north.other.class.id}/class-links`, page.html, { length: 'hour' })).status, 404, "a link for another class: 404");
    t.equal((await consolePost(teacher, `${url}/school/north/classes/${north.other.class.id}/class-links/${link!.id}/revoke`, page.html)).status, 404, "revoking there: 404");
    const southAdmin = await consoleSignInAsStaff(url, south.admin.credentials, undefined, clock);
    const southPage = await consolePage(southAdmin, `${url}/school/south`);
    t.equal((await consolePost(southAdmin, `${classUrl}/class-links`, southPage.html, { length: 'hour' })).status, 404, "another school's admin: 404");
    t.equal((await consolePost(southAdmin, `${classUrl}/class-links/${link!.id}/revoke`, southPage.html)).status, 404, 'nor revokes: 404');
    t.equal((await store.listClassLinks(north.organisation.id, north.taught.class.id, clock.now().toISOString())).length, 1, 'still one link');
    // A school admin of the school may.
    const admin = await consoleSignInAsStaff(url, north.admin.credentials, undefined, clock);
    const adminPage = await consolePage(admin, `${url}/school/north/classes/${north.other.class.id}`);
    t.equal((await consolePost(admin, `${url}/school/north/classes/${north.other.class.id}/class-links`, adminPage.html, { length: 'two_hours' })).status, 303, "the school's admin makes one for any class");

    // Pupils: the code typed with spaces, dashes, lower case; the link itself.
    for (const typed of [code, bare.toLowerCase(), ` ${bare.slice(0, 3)} ${bare.slice(3, 7)}-${bare.slice(7)} `]) {
      const pupil = new HttpBrowser();
      const opened = await typeCode(pupil, url, typed);
      t.equal(opened.status, 303, `${JSON.stringify(typed)} opens it`);
      t.equal(opened.headers.get('location'), '/sign-in?org=north', "on to the school's sign-in");
      t.match(pupil.cookies.get('lanyard_class'), `${north.organisation.id}~${link!.id}.`, 'the class-link cookie names the link');
      t.match(pupil.setCookieLines.find((l) => l.startsWith('lanyard_class=')), /HttpOnly; SameSite=Lax/);
    }
    const fromLink = new HttpBrowser();
    const followed = await fromLink.get(`${url}/class/${bare}`, { accept: 'text/html' });
    t.equal(followed.status, 303, 'the link (or its QR code) opens it');
    t.equal(followed.headers.get('location'), '/sign-in?org=north');
    t.equal((await fromLink.get(`${url}/sign-in?org=north`)).status, 303, 'the sign-in goes on to the screens');

    const forged = new HttpBrowser();
    await forged.get(`${url}/class`);
    const noToken = await forged.post(`${url}/class`, { csrf: 'x', code: bare });
    t.equal(noToken.status, 403, 'a form without its token opens nothing');
    t.notOk(forged.cookies.has('lanyard_class'));
    const wrong = await new HttpBrowser().get(`${url}/class/ABCDE-FGHJK`, { accept: 'text/html' });
    t.equal(wrong.status, 404, 'a wrong code: 404');
    t.match(await wrong.text(), 'This class link has ended or is wrong');

    // Revoked in the console: the link and the cookie it left open nothing.
    const service = new ClassLinkService({ store, clock, keyEncryptionKey: Buffer.alloc(32) });
    t.ok(await service.live(north.organisation.id, link!.id), 'live before');
    const revoked = await consolePost(teacher, `${classUrl}/class-links/${link!.id}/revoke`, back.html);
    t.equal(revoked.status, 303, 'revoked: 303');
    t.equal(location(revoked, url).pathname, `/school/north/classes/${north.taught.class.id}`);
    const after = await consolePage(teacher, classUrl);
    t.match(after.html, 'The class link is revoked', 'said on the class page');
    t.match(after.html, 'No class link is live now.');
    t.equal((await consolePost(teacher, `${classUrl}/class-links/${link!.id}/revoke`, after.html)).status, 303, 'revoking again changes nothing');
    t.equal(await service.live(north.organisation.id, link!.id), undefined, 'a browser holding its cookie gets no class');
    const late = await new HttpBrowser().get(`${url}/class/${bare}`, { accept: 'text/html', 'accept-language': 'fr' });
    t.equal(late.status, 404, 'the revoked link: 404');
    const latePage = await late.text();
    t.match(latePage, 'Ce lien de classe est terminé ou n’est pas bon', "in the browser's language");
    t.match(latePage, '<a href="/class">', 'with a way to type a code again');
    t.equal((await auditEvents(lanyard, north.organisation.id, 'class_link.revoked')).length, 1, 'revoking is in the audit trail, once');

    // Expired: an hour's link, an hour later.
    const next = await consolePage(teacher, classUrl);
    const hour = await consolePost(teacher, `${classUrl}/class-links`, next.html, { length: 'hour' });
    const hourCode = cardCode((await consolePage(teacher, location(hour, url).href)).html)!;
    t.equal((await new HttpBrowser().get(`${url}/class/${hourCode}`)).status, 303, 'live for its hour');
    clock.advance(60 * 60_000);
    t.equal((await new HttpBrowser().get(`${url}/class/${hourCode}`)).status, 404, 'ended after it');

    // The codes are in no log line (docs/school-console.md → Class links): the requests' lines say where, without them.
    const logs = lanyard.logs.join('');
    t.match(logs, '"url":"/class/[redacted]"', 'the link was opened, and logged');
    for (const secret of [bare, code, hourCode, hourCode.replace('-', '')]) t.notMatch(logs, secret, 'no code in the log');
  });
}

t.test('opening class links is rate limited per source: codes cannot be enumerated', async (t) => {
  const config = writeConfig((c) => { c.rate_limits = { class_link_per_minute: 3 }; });
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: config } });
  for (let i = 0; i < 3; i += 1) t.equal((await fetch(`${lanyard.url}/class/AAAAA-AAAA${i}`, { redirect: 'manual' })).status, 404, `guess ${i + 1}: 404`);
  const over = await fetch(`${lanyard.url}/class/AAAAA-AAAA3`, { redirect: 'manual', headers: { accept: 'text/html' } });
  t.equal(over.status, 429, 'the fourth: 429');
  t.ok(Number(over.headers.get('retry-after')) > 0, 'Retry-After');
  t.equal((await fetch(`${lanyard.url}/class`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'code=x' })).status, 429, 'the typed form shares the budget');
  t.equal((await fetch(`${lanyard.url}/class`)).status, 200, 'the form itself is not counted');
});

t.test('the card pupils read is in the school\'s language; the console around it stays English', async (t) => {
  const clock = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
  const lanyard = await startLanyard(t, { clock });
  const north = await putConsoleSchool(lanyard.store, 'north', 'École du Nord');
  await lanyard.store.upsertOrganisation({ id: north.organisation.id, slug: 'north', name: 'École du Nord', login: { ...north.organisation.login, language: 'fr' } });
  const classUrl = `${lanyard.url}/school/north/classes/${north.taught.class.id}`;
  const teacher = await consoleSignInAsStaff(lanyard.url, north.teacher.credentials, undefined, clock);
  const page = await consolePage(teacher, classUrl);
  const made = await consolePost(teacher, `${classUrl}/class-links`, page.html, { length: 'school_day' });
  const card = (await consolePage(teacher, location(made, lanyard.url).href)).html;
  t.match(card, '<div class="help-code-card class-link-card" lang="fr" dir="ltr">', 'the card says its language');
  t.match(card, '<h1 class="help-code-title">Class A : connecte-toi avec ta classe</h1>');
  t.match(card, `Ou ouvre ${new URL(lanyard.url).host}/class et tape le code de la classe :`);
  t.match(card, 'Marche jusqu’à 16:30 aujourd’hui.');
  t.match(card, 'École du Nord : ensuite, touche ton nom et tes images.');
  t.notMatch(card, /sign in with your class|Works until|tap your name/, 'none of it in English');
  t.match(card, 'data-print hidden>Print</button>', 'the console\'s own words stay English');
});
