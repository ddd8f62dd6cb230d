import t from 'tap';
import { TrustedDevices } from '../../src/accounts/trusted-devices.js';
import { ManualClock } from '../../src/clock.js';
import { sandboxCredentials } from '../../src/developer/sandbox.js';
import { writeConfig } from '../helpers/config-file.js';
import { developmentApp } from '../helpers/development-app.js';
import { HttpBrowser, hiddenField } from '../helpers/http-browser.js';
import { startLanyard } from '../helpers/lanyard.js';
import { authorizationRequest, DEMO_CLIENT, relyingParty } from '../helpers/relying-party.js';
import { signIn } from '../helpers/sign-in.js';
import { markClassroomDevice } from '../helpers/spray.js';

/**
 * Trusted classroom devices are made only by staff of a real school, and only a device the store knows and
 * has not revoked gets a rate-limit budget of its own (docs/security.md → Sign-in protection, Rate limits).
 */

t.test('a sandbox test user, signed in through a development app, cannot mark a classroom device', async (t) => {
  const lanyard = await startLanyard(t);
  const app = await developmentApp(lanyard);
  const sandbox = await sandboxCredentials(lanyard.store);
  const rp = await relyingParty(lanyard.url, app.clientId, app.secret);
  for (const username of ['teacher', 'admin']) {
    const browser = new HttpBrowser();
    const u = sandbox.users.find((x) => x.username === username)!;
    const request = await authorizationRequest(rp);
    const callback = await signIn(browser, lanyard.url, request.url, { username, password: u.password!, organisation: 'sandbox' });
    t.ok(callback.searchParams.get('code'), `the sandbox ${username} signed in to the development app`);

    const page = await (await browser.get(`${lanyard.url}/classroom-device`)).text();
    t.match(page, /Signed in as/, 'the page knows who is signed in');
    t.notMatch(page, /Mark as a classroom device/, 'but offers no marking');
    t.match(page, /test users cannot mark classroom devices/, 'and says why');
    const posted = await browser.post(`${lanyard.url}/classroom-device`, { csrf: hiddenField(page, 'csrf'), name: 'Sandbox cart' });
    t.equal(posted.status, 403, 'posting the form anyway is refused');
    t.notOk(browser.cookies.has('lanyard_classroom'), 'no credential was given');
  }
  t.same(await new TrustedDevices(lanyard.store, new ManualClock()).list(sandbox.organisation.id), [], 'no device stored for the sandbox school');
});

t.test('the rate-limit key honours only classroom credentials the store knows and has not revoked', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, { clock, env: { LANYARD_CONFIG: writeConfig((c) => { c.rate_limits = { authorize_per_minute: 8 }; }) } });
  const authorize = (state: string) => `${lanyard.url}/oauth/authorize?${new URLSearchParams({
    client_id: DEMO_CLIENT.id, redirect_uri: DEMO_CLIENT.redirectUri, response_type: 'code', scope: 'openid', state,
  })}`;
  const statuses = async (browser: HttpBrowser, n: number, label: string) => {
    const out: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const res = await browser.get(authorize(`${label}-${i}`));
      await res.arrayBuffer();
      out.push(res.status);
    }
    return out;
  };
  const kept = new HttpBrowser();
  const revoked = new HttpBrowser();
  await markClassroomDevice(t, kept, lanyard.url, 'Cart 1');
  await markClassroomDevice(t, revoked, lanyard.url, 'Cart 2');
  const org = (await lanyard.store.findOrganisation('demo-school'))!;
  const devices = new TrustedDevices(lanyard.store, clock);
  const cart2 = (await devices.list(org.id)).find((d) => d.name === 'Cart 2')!;
  await devices.revoke(org.id, { id: cart2.id });
  clock.advance(61_000); // a fresh minute: marking spent some of the address's budget

  t.same(await statuses(kept, 8, 'active'), Array(8).fill(303), 'an active classroom device: a budget of its own');
  t.same(await statuses(new HttpBrowser(), 9, 'bare'), [...Array(8).fill(303), 429], 'the bare address: 8, then 429');
  t.same(await statuses(revoked, 2, 'revoked'), [429, 429], 'a revoked device’s credential buys nothing: its address is spent');
  t.same(await statuses(kept, 1, 'active-again'), [429], 'the active device has spent its own 8');
});

t.test('devices a sandbox test user marked before only real schools’ staff could are revoked at the next start', async (t) => {
  const first = await startLanyard(t);
  const sandbox = await sandboxCredentials(first.store);
  const demo = (await first.store.findOrganisation('demo-school'))!;
  const before = new TrustedDevices(first.store, new ManualClock());
  await before.add(sandbox.organisation.id, 'Sandbox cart', { id: 'sandbox-teacher', username: 'teacher' });
  await before.add(demo.id, 'Real cart', { id: 'demo-teacher', username: 'teacher' });
  await first.stop();
  const second = await startLanyard(t, { dir: first.dir });
  const after = new TrustedDevices(second.store, new ManualClock());
  t.match(await after.list(sandbox.organisation.id), [{ name: 'Sandbox cart', revokedAt: String }], 'the sandbox school’s device is revoked');
  t.match(await after.list(demo.id), [{ name: 'Real cart', revokedAt: undefined }], 'a real school’s is not');
});
