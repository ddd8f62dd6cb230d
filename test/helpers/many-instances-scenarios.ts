import type { Test } from 'tap';
import { openStore } from '../../adapters/open-store.js';
import type { Store } from '../../adapters/store.js';
import { DEFAULT_THROTTLE_POLICY } from '../../src/accounts/login-throttle.js';
import { systemClock } from '../../src/clock.js';
import { addMonths, shouldPrepareNext, signingMonth } from '../../src/keys/policy.js';
import {
  alertText, demoAuthorizeUrl, EMOJI_KID, exchange, HttpBrowser, idTokenClaims, openMethod, postEmoji,
} from './children.js';
import { location } from './http-browser.js';
import { type Backend, type Instance, onInstance, type Pair, serveProcess, sharedStore, startPair } from './instances.js';
import { type RedisServer, startRedis } from './redis-server.js';
import { DEMO_BASIC_AUTH, DEMO_CLIENT } from './relying-party.js';
import { signIn, TEACHER } from './sign-in.js';

/**
 * The acceptance list for running Lanyard as several instances on one store (the many-instances issue),
 * written once and run against each backend by test/integration/many-instances*.test.ts. Every scenario
 * gets a fresh store (a new SQLite file, or a new key prefix on one redis-server), so counters, sessions and
 * client changes of one cannot leak into another. Requests go to each instance's own port, as a load
 * balancer would send them.
 */

const CALLBACK = DEMO_CLIENT.redirectUri;
const OTHER_CALLBACK = 'http://localhost:8080/other';
const WRONG = ['cat', 'dog', 'cat', 'dog', 'cat', 'dog'];

const origins = (p: Pair) => [p.issuer, p.a.origin, p.b.origin];
const isCallback = (u: URL, path = '/callback') => `${u.origin}${u.pathname}` === `http://localhost:8080${path}`;
const count = <T>(xs: T[], p: (x: T) => boolean) => xs.filter(p).length;
const events = (instances: Instance[], event: string) =>
  instances.reduce((n, i) => n + count(i.logs, (l) => l.includes(`"event":"${event}"`)), 0);

/** Follows the provider's redirects on `via` (whatever origin they name) until they leave Lanyard. */
async function follow(browser: HttpBrowser, via: Instance, res: Response, ours: string[]): Promise<URL> {
  let to = location(res, via.origin);
  for (let hops = 0; ours.includes(to.origin) && hops < 8; hops += 1) {
    to = location(await browser.get(onInstance(to, via, ours)), via.origin);
  }
  return to;
}

/** POST /oauth/token with an authorization code, to one instance. */
async function redeem(via: Instance, code: string, auth = DEMO_BASIC_AUTH): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${via.origin}/oauth/token`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK }),
  });
  return { status: res.status, json: await res.json() as Record<string, unknown> };
}

/** The teacher signs in on `via` with a fresh browser; returns the browser and the app's callback URL. */
async function teacherSignedIn(via: Instance) {
  const browser = new HttpBrowser();
  // signIn walks the screens on the origin it is given: the instance's own.
  const callback = await signIn(browser, via.origin, demoAuthorizeUrl(via.origin), TEACHER);
  if (!isCallback(callback) || !callback.searchParams.get('code')) throw new Error(`sign-in on ${via.origin} ended at ${callback.href}`);
  return { browser, callback };
}

/**
 * The month's signing key exists once in the store and every instance publishes just it. In the last days of
 * a month next month's key is prepared in the background (also once, never published before its month).
 */
async function expectOneKey(t: Test, store: Store, instances: string[]): Promise<void> {
  const now = new Date();
  const keys = await store.listKeys();
  const month = signingMonth(now);
  t.equal(count(keys, (k) => k.month === month), 1, `exactly one key for ${month}`);
  if (shouldPrepareNext(now)) {
    t.ok(keys.every((k) => k.month === month || k.month === addMonths(month, 1)), 'this month\'s key and maybe next month\'s');
    t.equal(count(keys, (k) => k.month === addMonths(month, 1)), keys.length - 1, 'at most one for next month');
  } else {
    t.equal(keys.length, 1, 'exactly one key stored');
  }
  const current = keys.find((k) => k.month === month)?.kid;
  for (const origin of instances) {
    const jwks = await (await fetch(`${origin}/.well-known/jwks.json`)).json() as { keys: { kid: string }[] };
    t.same(jwks.keys.map((k) => k.kid), [current], `${origin} publishes that one key`);
  }
}

/** `n` requests, alternating between A and B: the even ones to A, the odd ones to B. */
const split = <T>(pair: Pair, n: number, fn: (via: Instance, i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => fn(i % 2 === 0 ? pair.a : pair.b, i)));

export async function manyInstancesScenarios(t: Test, backend: Backend): Promise<void> {
  // One redis-server for the whole run: each scenario's store is its own key prefix on it.
  const redis: RedisServer | undefined = backend === 'redis' ? await startRedis(t) : undefined;
  const pair = (t: Test, together = false) => startPair(t, backend, { ...(redis ? { redis } : {}), together });

  t.test(`${backend}: 50 parallel redemptions of one code across A and B: exactly one succeeds`, async (t) => {
    const p = await pair(t);
    const { callback } = await teacherSignedIn(p.a);
    const code = callback.searchParams.get('code')!;
    const answers = await split(p, 50, (via) => redeem(via, code));
    const ok = answers.filter((r) => r.status === 200);
    t.equal(ok.length, 1, 'exactly one 200');
    t.type(ok[0]?.json.access_token, 'string', 'the one success carries tokens');
    t.equal(count(answers, (r) => r.status === 400 && r.json.error === 'invalid_grant'), 49, 'the 49 others: 400 invalid_grant');
    t.same([...new Set(answers.map((r) => r.status))].sort(), [200, 400], `nothing else (statuses: ${answers.map((r) => r.status).join(',')})`);
  });

  t.test(`${backend}: a burst of 40 wrong emoji passwords from one device across A and B stops after the free attempts`, async (t) => {
    const p = await pair(t);
    const free = DEFAULT_THROTTLE_POLICY.newDeviceFreeAttempts;
    // One new device (one device cookie, never signed in), forty forms, half on each instance.
    // (Forty browsers holding the same device cookie: a browser here keeps one interaction cookie at a time.)
    const seed = new HttpBrowser();
    await openMethod(seed, p.a.origin, 'emoji');
    const device = seed.cookies.get('lanyard_device')!;
    const steps = await split(p, 40, async (via) => {
      const browser = new HttpBrowser();
      browser.cookies.set('lanyard_device', device);
      return { via, browser, step: await openMethod(browser, via.origin, 'emoji') };
    });
    t.ok(steps.every((s) => s.step.status === 200), 'forty emoji forms shown');
    t.ok(steps.every((s) => s.browser.cookies.get('lanyard_device') === device), 'all on the one device');
    const answers = await Promise.all(steps.map(({ via, browser, step }) => postEmoji(browser, via.origin, step, EMOJI_KID.username, WRONG)));
    const statuses = answers.map((r) => r.status);
    const texts = await Promise.all(answers.map(async (r) => alertText(await r.text()) ?? ''));

    t.equal(events([p.a, p.b], 'login.failed'), free, `exactly ${free} guesses were verified, across both instances`);
    // The last verified failure already answers "wait".
    t.equal(count(statuses, (s) => s === 401), free - 1, `${free - 1} answered 401`);
    t.ok(texts.filter((_, i) => statuses[i] === 401).every((x) => /do not match/.test(x)), 'the 401s say the pictures do not match');
    t.equal(count(statuses, (s) => s === 429), 40 - (free - 1), 'all the others answered 429');
    t.ok(answers.filter((r) => r.status === 429).every((r) => Number(r.headers.get('retry-after')) > 0), 'each 429 with Retry-After');
    t.same([...new Set(statuses)].sort(), [401, 429], `nothing else (statuses: ${statuses.join(',')})`);

    const org = (await p.a.store.findOrganisation('demo-school'))!;
    t.equal((await p.b.store.peekCounter(`cap:emoji:${org.id}:${EMOJI_KID.username}#0`))?.count, free,
      `the account's consecutive-failure count in the store is ${free} (refused attempts not counted)`);
  });

  t.test(`${backend}: fresh devices across A and B get exactly the ${DEFAULT_THROTTLE_POLICY.newDeviceFailureCap} failures of the cap`, async (t) => {
    const p = await pair(t);
    const cap = DEFAULT_THROTTLE_POLICY.newDeviceFailureCap;
    const steps = await split(p, cap + 20, async (via) => {
      const browser = new HttpBrowser();
      return { via, browser, step: await openMethod(browser, via.origin, 'emoji') };
    });
    const answers = await Promise.all(steps.map(({ via, browser, step }) => postEmoji(browser, via.origin, step, EMOJI_KID.username, WRONG)));
    t.equal(events([p.a, p.b], 'login.failed'), cap, `exactly ${cap} guesses were verified`);
    // The last verified failure already answers 429 (the path has stopped).
    t.same(answers.map((r) => r.status).sort(), [...Array(cap - 1).fill(401), ...Array(21).fill(429)], 'the 20 others were refused');
    const org = (await p.a.store.findOrganisation('demo-school'))!;
    t.equal((await p.a.store.peekCounter(`cap:emoji:${org.id}:${EMOJI_KID.username}#0`))?.count, cap, 'the store counted exactly the cap');
  });

  t.test(`${backend}: 30 right emoji sign-ins in parallel across A and B all succeed`, async (t) => {
    const p = await pair(t);
    const steps = await split(p, 30, async (via) => {
      const browser = new HttpBrowser();
      return { via, browser, step: await openMethod(browser, via.origin, 'emoji') };
    });
    t.ok(steps.every((s) => s.step.status === 200), 'thirty emoji forms shown');
    const started = Date.now();
    const answers = await Promise.all(steps.map(({ via, browser, step }) => postEmoji(browser, via.origin, step, EMOJI_KID.username, EMOJI_KID.emoji)));
    t.comment(`30 parallel right sign-ins took ${Date.now() - started} ms`);
    const statuses = answers.map((r) => r.status);
    t.equal(count(statuses, (s) => s === 303), 30, `all thirty: 303 (statuses: ${statuses.join(',')})`);
    t.equal(count(statuses, (s) => s === 503), 0, 'none 503');
    const callbacks = await Promise.all(steps.map(({ via, browser }, i) => follow(browser, via, answers[i]!, origins(p)).catch(() => undefined)));
    t.equal(count(callbacks, (c) => !!c && isCallback(c) && !!c.searchParams.get('code')), 30, 'each went on to the app\'s callback with a code');
    t.equal(events([p.a, p.b], 'login.succeeded'), 30, 'thirty login.succeeded, across both instances');
  });

  t.test(`${backend}: a session made on A is valid on B`, async (t) => {
    const p = await pair(t);
    const { browser } = await teacherSignedIn(p.a);
    const res = await browser.get(demoAuthorizeUrl(p.b.origin));
    t.equal(res.status, 303, 'B redirects');
    const to = location(res, p.b.origin);
    t.ok(isCallback(to), `straight to the app's callback, no login screen (went to ${to.href})`);
    t.ok(to.searchParams.get('code'), 'with a code');
    if (to.searchParams.get('code')) {
      t.equal(idTokenClaims(await exchange(p.b.origin, to)).email, 'teacher@demo-school.example', 'B issued tokens for the teacher');
    }
  });

  t.test(`${backend}: logout on B ends the session made on A`, async (t) => {
    const p = await pair(t);
    const { browser } = await teacherSignedIn(p.a);
    const sessionCookies = [...browser.cookies].filter(([k]) => k.startsWith('_session'));
    t.ok(sessionCookies.length, 'signed in on A with a session cookie');
    t.ok(isCallback(location(await browser.get(demoAuthorizeUrl(p.a.origin)), p.a.origin)), 'the session works on A');

    const out = await browser.get(`${p.b.origin}/oauth/logout?client_id=demo-app`);
    t.equal(out.status, 303, 'B signs out');
    t.equal(out.headers.get('location'), 'http://localhost:8080/signed-out', 'to the app\'s logout_url');

    const again = location(await browser.get(demoAuthorizeUrl(p.a.origin)), p.a.origin);
    t.match(again.pathname, /^\/interaction\//, 'A shows the login screen again');
    // The cookie was cleared, so prove the stored session is gone too: an old copy of it is worthless on A.
    const replay = new HttpBrowser();
    for (const [k, v] of sessionCookies) replay.cookies.set(k, v);
    const replayed = location(await replay.get(demoAuthorizeUrl(p.a.origin)), p.a.origin);
    t.match(replayed.pathname, /^\/interaction\//, 'A asks an old copy of the session cookie to sign in');
    const page = await (await browser.get(onInstance(again, p.a, origins(p)))).text();
    t.match(page, /Find your school|How do you sign in\?|name="password"|name="username"/, 'the login screen (the picker, or the remembered school’s ways of signing in)');
  });

  t.test(`${backend}: a client changed through A's store applies on B at once`, async (t) => {
    const p = await pair(t);
    const authorizeOther = (via: Instance) => fetch(`${via.origin}/oauth/authorize?${new URLSearchParams({
      client_id: DEMO_CLIENT.id, redirect_uri: OTHER_CALLBACK, response_type: 'code', scope: 'openid', nonce: 'n-other',
    }).toString()}`, { redirect: 'manual' });
    const before = await authorizeOther(p.b);
    t.equal(before.status, 400, 'B refuses the unregistered redirect URI first');
    t.match(await before.text(), /redirect_uri/, 'an error page about the redirect URI');

    const existing = (await p.a.store.findClient(DEMO_CLIENT.id))!;
    await p.a.store.putClient({ ...existing, redirectUris: [...existing.redirectUris, OTHER_CALLBACK], updatedAt: new Date().toISOString() });
    const after = await authorizeOther(p.b);
    t.equal(after.status, 303, 'B accepts the redirect URI added on A');
    t.match(location(after, p.b.origin).pathname, /^\/interaction\//, 'on to the login screen, not an error page');

    const { callback } = await teacherSignedIn(p.a);
    const accepted = await redeem(p.b, 'not-a-code');
    t.equal(accepted.status, 400, 'before: B accepts the secret (the bogus code is what it refuses)');
    t.equal(accepted.json.error, 'invalid_grant', 'invalid_grant, not invalid_client');
    const secrets = await p.a.store.listClientSecrets(DEMO_CLIENT.id);
    t.ok(secrets.length, 'the demo app has secrets');
    for (const s of secrets) t.ok(await p.a.store.deleteClientSecret(DEMO_CLIENT.id, s.id), `secret ${s.id} deleted through A's store`);
    const refused = await redeem(p.b, callback.searchParams.get('code')!);
    t.equal(refused.status, 401, 'B refuses the deleted secret at once');
    t.equal(refused.json.error, 'invalid_client', 'invalid_client');
  });

  t.test(`${backend}: two instances starting together on an empty store create one signing key`, async (t) => {
    const p = await pair(t, true);
    await expectOneKey(t, p.a.store, [p.a.origin, p.b.origin]);
  });

  // In process the two starts rarely overlap where it matters (a pooled key pair is ready at once); real
  // processes each generate an RSA-4096 pair for seconds, so both find the store empty and race to insert.
  t.test(`${backend}: two \`lanyard serve\` processes starting together on an empty store create one signing key`, async (t) => {
    const shared = await sharedStore(t, backend, redis ? { redis } : {});
    const started = Date.now();
    const children = await Promise.all([serveProcess(t, shared, 60_000), serveProcess(t, shared, 60_000)]);
    t.comment(`both ready in ${Date.now() - started} ms`);
    const store = await openStore(shared.storeUrl, systemClock, { redisPrefix: shared.env.LANYARD_REDIS_PREFIX ?? 'lanyard' });
    t.teardown(() => store.close());
    await expectOneKey(t, store, children.map((c) => c.origin));
  });

  t.test(`${backend}: a form shown by an instance killed with SIGKILL is accepted by another`, async (t) => {
    const shared = await sharedStore(t, backend, redis ? { redis } : {});
    const a = await shared.start(t, { first: true });
    const started = Date.now();
    const child = await serveProcess(t, shared);
    t.comment(`lanyard serve ready in ${Date.now() - started} ms`);
    const browser = new HttpBrowser();
    const step = await openMethod(browser, child.origin, 'emoji');
    t.equal(step.status, 200, 'the child instance shows the emoji form');
    const exited = new Promise((resolve) => child.child.once('exit', (_code, signal) => resolve(signal)));
    process.kill(child.child.pid!, 'SIGKILL');
    t.equal(await exited, 'SIGKILL', 'the child is killed');
    const ours = [shared.issuer, a.origin, child.origin];
    const res = await postEmoji(browser, a.origin, step, EMOJI_KID.username, EMOJI_KID.emoji);
    t.equal(res.status, 303, 'the same form posted to the in-process instance signs in');
    const callback = await follow(browser, a, res, ours);
    t.ok(isCallback(callback), `on to the app's callback (${callback.href})`);
    const tokens = await exchange(a.origin, callback);
    t.equal(idTokenClaims(tokens).given_name, 'Emmy', 'and the code exchanges for Emmy\'s tokens');
  });
}
