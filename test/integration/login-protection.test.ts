import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import { DEFAULT_THROTTLE_POLICY as P } from '../../src/accounts/login-throttle.js';
import { lanyard as lanyardCli } from '../helpers/cli.js';
import { startLanyard } from '../helpers/lanyard.js';
import { EMOJI_KID, HttpBrowser, openMethod, postEmoji } from '../helpers/children.js';
import { hiddenField } from '../helpers/http-browser.js';
import { classroomDeviceSignIn, markClassroomDevice, spray } from '../helpers/spray.js';

const WRONG = ['cat', 'dog', 'cat', 'dog', 'cat', 'dog'];

/** Signs EMOJI_KID in on `browser` (a fresh login screen each time); the status and how long it took. */
async function kidSignsIn(browser: HttpBrowser, url: string, headers: Record<string, string> = {}) {
  // A new sign-in on this device: its sessions end (as on a shared tablet), its device cookies stay.
  for (const name of [...browser.cookies.keys()]) if (!name.startsWith('lanyard_')) browser.cookies.delete(name);
  const started = Date.now();
  for (;;) {
    const step = await openMethod(browser, url, 'emoji', 'demo-school', headers);
    const res = await postEmoji(browser, url, step, EMOJI_KID.username, EMOJI_KID.emoji, {}, headers);
    const retry = Number(res.headers.get('retry-after'));
    if (res.status !== 429 || !retry || Date.now() - started > 90_000) return { status: res.status, seconds: (Date.now() - started) / 1000 };
    await new Promise((resolve) => setTimeout(resolve, retry * 1000));
  }
}

for (const from of ['one address (the school’s)', 'many addresses'] as const) {
  t.test(`a spray at every account from ${from}: known, trusted and new devices still sign in`, async (t) => {
    const lanyard = await startLanyard(t, { env: { LANYARD_TRUST_PROXY: '1' } });
    const school = { 'x-forwarded-for': '203.0.113.7' };
    const tablet = new HttpBrowser();
    t.equal((await kidSignsIn(tablet, lanyard.url, school)).status, 303, 'the pupil’s tablet signs in: it is known from now on');
    const cart = new HttpBrowser();
    await markClassroomDevice(t, cart, lanyard.url);

    const attack = spray(lanyard.url, { seconds: 8, addresses: from === 'many addresses' ? 50 : 1, school: school['x-forwarded-for'] });
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // the spray is under way
    const known = await kidSignsIn(tablet, lanyard.url, school);
    const trusted = await kidSignsIn(cart, lanyard.url, school);
    const fresh = await kidSignsIn(new HttpBrowser(), lanyard.url, school);
    const result = await attack;

    t.ok(result.guesses >= 20, `the attacker made ${result.guesses} guesses at ${result.accounts} accounts (${result.throttled} slowed down)`);
    t.ok(result.throttled > 0, 'and was slowed down');
    t.equal(result.other, 0, 'every answer to the attacker was 401 or 429');
    t.same([known.status, trusted.status], [303, 303], 'the known tablet and the classroom device sign in');
    t.ok(known.seconds < 5 && trusted.seconds < 5, `at once (${known.seconds.toFixed(1)} s, ${trusted.seconds.toFixed(1)} s)`);
    t.equal(fresh.status, 303, 'a pupil with the right pictures on a new device signs in');
    t.ok(fresh.seconds < 60, `within 60 seconds (${fresh.seconds.toFixed(1)} s)`);
  });
}

t.test(`${P.newDeviceFailureCap} wrong tries from new devices stop that path until staff unlock it`, async (t) => {
  const lanyard = await startLanyard(t);
  const tablet = new HttpBrowser();
  t.equal((await kidSignsIn(tablet, lanyard.url)).status, 303, 'the pupil’s tablet is known');
  const statuses: number[] = [];
  for (let i = 0; i < P.newDeviceFailureCap; i++) {
    const browser = new HttpBrowser(); // a fresh device for every guess
    const step = await openMethod(browser, lanyard.url, 'emoji');
    statuses.push((await postEmoji(browser, lanyard.url, step, EMOJI_KID.username, WRONG)).status);
  }
  t.equal(lanyard.logs.filter((l) => l.includes('"event":"login.failed"')).length, P.newDeviceFailureCap, 'each was checked and failed');
  t.same(statuses.filter((s) => s !== 401), [429], 'the last failure already says the path has stopped');
  const newDevice = new HttpBrowser();
  const step = await openMethod(newDevice, lanyard.url, 'emoji');
  const stopped = await postEmoji(newDevice, lanyard.url, step, EMOJI_KID.username, EMOJI_KID.emoji);
  t.equal(stopped.status, 429, 'a new device is refused even with the right pictures');
  t.equal(stopped.headers.get('retry-after'), null, 'with no wait to count down: staff must act');
  t.match(await stopped.text(), /Ask your teacher/);
  t.equal((await kidSignsIn(tablet, lanyard.url)).status, 303, 'the known tablet still signs in');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"login.throttled"') && l.includes('"stopped":true')), 'logged');

  const store = { LANYARD_STORE: `sqlite:${join(lanyard.dir, 'lanyard.db')}` };
  const unlocked = await lanyardCli(['users', 'unlock', '--org', 'demo-school', '--user', EMOJI_KID.username], store);
  t.equal(unlocked.code, 0, `lanyard users unlock: ${unlocked.stderr}`);
  t.match(unlocked.stdout, /unlocked emoji-kid at Demo School \(sign-in from new devices had stopped: emoji\)/);
  const again = await openMethod(newDevice, lanyard.url, 'emoji');
  t.equal((await postEmoji(newDevice, lanyard.url, again, EMOJI_KID.username, EMOJI_KID.emoji)).status, 303, 'unlocked: the new device signs in');
});

t.test('when the counters cannot be used, low-entropy sign-in fails closed', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const spanish = { 'accept-language': 'es' };
  const step = await openMethod(browser, lanyard.url, 'emoji', 'demo-school', spanish);
  const db = new Database(join(lanyard.dir, 'lanyard.db'));
  db.exec('DROP TABLE counters');
  db.close();
  const res = await postEmoji(browser, lanyard.url, step, EMOJI_KID.username, EMOJI_KID.emoji, {}, spanish);
  t.equal(res.status, 503, 'refused, even with the right pictures');
  const page = await res.text();
  t.match(page, /<html lang="es"/, 'in the pupil’s language');
  t.match(page, /Prueba otra vez en un momento/, 'the store’s unavailable page, translated');
  t.notMatch(page, /Sign-in is resting|try again shortly/, 'no English left');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"login.unavailable"')));
});

t.test('a burst of parallel guesses is not verified past the free attempts; the wait counts down on the page', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const step = await openMethod(browser, lanyard.url, 'emoji');
  const answers = await Promise.all(Array.from({ length: 20 }, () => postEmoji(browser, lanyard.url, step, EMOJI_KID.username, WRONG)));
  const failed = lanyard.logs.filter((l) => l.includes('"event":"login.failed"')).length;
  t.equal(failed, P.newDeviceFreeAttempts, 'exactly the free attempts were checked');
  const throttled = answers.filter((r) => r.status === 429);
  t.same(answers.map((r) => r.status).sort(), [...Array(P.newDeviceFreeAttempts - 1).fill(401), ...Array(21 - P.newDeviceFreeAttempts).fill(429)],
    'the last free attempt and all the others answered 429 (the others without being checked)');
  t.ok(answers.every((r) => r.status === 401 || r.status === 429), 'and nothing else happened');
  const retry = Number(throttled[0]!.headers.get('retry-after'));
  t.ok(retry > 0 && retry <= P.newDeviceMaxWaitSeconds, `a short wait (${retry} s)`);
  const page = await throttled[0]!.text();
  t.match(page, new RegExp(`data-countdown="${retry}"`), 'shown as a countdown');
  t.match(page, /src="\/assets\/countdown\.js"/, 'with the script that counts it down');
});

t.test('lanyard devices list and revoke: a revoked classroom device counts as unknown at once', async (t) => {
  const lanyard = await startLanyard(t);
  const store = { LANYARD_STORE: `sqlite:${join(lanyard.dir, 'lanyard.db')}` };
  const cart = new HttpBrowser();
  await markClassroomDevice(t, cart, lanyard.url, 'Cart 7');
  const listed = await lanyardCli(['devices', 'list', '--org', 'demo-school', '--json'], store);
  t.equal(listed.code, 0, listed.stderr);
  const [device] = JSON.parse(listed.stdout) as { id: string; name: string; created_by: string; status: string }[];
  t.match(device, { name: 'Cart 7', created_by: 'teacher', status: 'active' }, 'listed with who marked it');
  t.match((await lanyardCli(['devices', 'list', '--org', 'demo-school'], store)).stdout, /Cart 7\s+\S+ \S+\s+teacher\s+active/, 'and as a table');

  // Three wrong tries from elsewhere make the pupil's unknown devices wait; the cart is not slowed …
  const elsewhere = new HttpBrowser();
  const step = await openMethod(elsewhere, lanyard.url, 'emoji');
  for (let i = 0; i < P.newDeviceFreeAttempts; i++) await postEmoji(elsewhere, lanyard.url, step, EMOJI_KID.username, WRONG);
  const org = (await lanyard.store.findOrganisation('demo-school'))!;
  const unknownFailures = async () => (await lanyard.store.peekCounter(`cap:emoji:${org.id}:${EMOJI_KID.username}#0`))?.count ?? 0;
  const tryOnCart = async () => {
    for (const name of [...cart.cookies.keys()]) if (!name.startsWith('lanyard_')) cart.cookies.delete(name); // the teacher's session
    const onCart = await openMethod(cart, lanyard.url, 'emoji');
    return (await postEmoji(cart, lanyard.url, onCart, EMOJI_KID.username, WRONG)).status;
  };
  t.equal(await unknownFailures(), P.newDeviceFreeAttempts, 'the wrong tries from elsewhere count on the unknown-device path');
  t.equal(await tryOnCart(), 401, 'a wrong try on the cart is verified (not slowed by the others)');
  t.equal(await unknownFailures(), P.newDeviceFreeAttempts, 'and counts on the cart’s own known-device path');

  const revoked = await lanyardCli(['devices', 'revoke', '--org', 'demo-school', '--device', device!.id], store);
  t.equal(revoked.code, 0, revoked.stderr);
  t.match(revoked.stdout, /revoked 1 classroom device/);
  t.match(JSON.parse((await lanyardCli(['devices', 'list', '--org', 'demo-school', '--json'], store)).stdout), [{ status: 'revoked' }]);
  const page = await (await cart.get(`${lanyard.url}/classroom-device`)).text();
  t.notMatch(page, /This is a classroom device/, 'the cart no longer says it is one');
  t.equal(await tryOnCart(), 401, 'a wrong try on the revoked cart …');
  t.equal(await unknownFailures(), P.newDeviceFreeAttempts + 1, '… counts on the unknown-device path now');
  const missing = await lanyardCli(['devices', 'revoke', '--org', 'demo-school'], store);
  t.not(missing.code, 0, 'revoke needs --device or --all');
  t.match(missing.stderr, /--device ID .* or --all/);
});

t.test("a classroom-device form's token works in its own session only: on a shared device, not in the next one", async (t) => {
  const lanyard = await startLanyard(t);
  const cart = new HttpBrowser();
  const first = hiddenField(await classroomDeviceSignIn(cart, lanyard.url), 'csrf');
  t.equal((await cart.post(`${lanyard.url}/classroom-device`, { csrf: first, name: 'Cart 1' })).status, 303, 'marked in the first session (which it ends)');
  const page = await classroomDeviceSignIn(cart, lanyard.url);
  const second = hiddenField(page, 'csrf');
  t.not(second, first, 'the next session gets another token');
  const stale = await cart.post(`${lanyard.url}/classroom-device`, { csrf: first, name: 'Cart 2' });
  t.equal(stale.status, 403, 'the first session’s token is refused in the second');
  t.match(await stale.text(), /This form has expired/);
  t.equal((await cart.post(`${lanyard.url}/classroom-device/revoke`, { csrf: first })).status, 403, 'for revoking too');
  t.equal((await cart.post(`${lanyard.url}/classroom-device/sign-out`, { csrf: first })).status, 403, 'and for signing out (no one else signs a teacher out)');
  t.match(await (await cart.get(`${lanyard.url}/classroom-device`)).text(), /Signed in as/, 'still signed in');
  t.equal((await cart.post(`${lanyard.url}/classroom-device`, { csrf: second, name: 'Cart 2' })).status, 303, 'the second session’s own token works');
});
