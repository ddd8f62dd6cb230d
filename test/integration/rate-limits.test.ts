import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { ManualClock } from '../../src/clock.js';
import type { RateLimitsConfig } from '../../src/config/schema.js';
import { RATE_LIMIT_DEFAULTS } from '../../src/config/defaults.js';
import { rateLimitPolicy } from '../../src/http/rate-limit-policy.js';
import { writeConfig } from '../helpers/config-file.js';
import { HttpBrowser, location } from '../helpers/http-browser.js';
import { type Backend, sharedStore } from '../helpers/instances.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { startRedis } from '../helpers/redis-server.js';
import { DEMO_CLIENT } from '../helpers/relying-party.js';

/**
 * Rate limits on what anyone can make Lanyard store or look up without signing in (docs/security.md → Rate limits):
 * the authorization endpoint and the sign-in pages, per client address, counted in the store (so two
 * instances share one budget), answered 429 with Retry-After, and 503 when the store cannot count.
 */

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

const authorizeUrl = (base: string, state: string) => `${base}/oauth/authorize?${new URLSearchParams({
  client_id: DEMO_CLIENT.id, redirect_uri: DEMO_CLIENT.redirectUri, response_type: 'code', scope: 'openid', state,
})}`;

/** One request; the body read so the connection is reused. */
async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { redirect: 'manual', headers });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

function interactionsStored(lanyard: Pick<Lanyard, 'dir'>): number {
  const db = new Database(join(lanyard.dir, 'lanyard.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM oidc_records WHERE model = 'Interaction'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Requests handed to oidc-provider (mount.ts calls host.handle for each), counted from here on. */
function providerAnswered(lanyard: Lanyard): () => number {
  const host = lanyard.app.lanyard.host;
  const handle = host.handle.bind(host);
  let handed = 0;
  host.handle = (req, res) => { handed += 1; handle(req, res); };
  return () => handed;
}

const configWith = (limits: RateLimitsConfig) => writeConfig((c) => { c.rate_limits = limits; });

t.test('the defaults are the ones the README works out, and the config file changes them', async (t) => {
  t.same(RATE_LIMIT_DEFAULTS, {
    authorize_per_minute: 10_000, authorize_per_hour: 30_000, interaction_pages_per_minute: 30_000, class_link_per_minute: 60, class_link_per_hour: 600,
  });
  t.same(rateLimitPolicy({ authorize_per_hour: 7 }).authorize.map((b) => [b.max, b.windowSeconds]), [[10_000, 60], [7, 3600]]);
});

t.test('authorize: 429 with Retry-After once a budget is spent, before oidc-provider sees the request', async (t) => {
  const clock = new ManualClock();
  const lanyard = await startLanyard(t, {
    clock,
    env: { LANYARD_CONFIG: configWith({ authorize_per_minute: 4, authorize_per_hour: 6 }) },
  });
  for (let i = 0; i < 4; i += 1) t.equal((await get(authorizeUrl(lanyard.url, `s${i}`))).status, 303, `request ${i + 1}: a sign-in starts`);
  t.equal(interactionsStored(lanyard), 4, 'four interactions stored');
  const handed = providerAnswered(lanyard);

  const page = await get(authorizeUrl(lanyard.url, 'over'), BROWSER);
  t.equal(page.status, 429, 'request 5: 429 Too Many Requests');
  const retry = Number(page.headers.get('retry-after'));
  t.ok(retry >= 59 && retry <= 60, `Retry-After is the rest of the minute (${retry})`);
  t.equal(page.headers.get('location'), null, 'never a redirect: redirect_uri is not validated yet');
  t.match(page.headers.get('content-type'), /^text\/html/, 'a browser gets a page');
  t.match(page.body, '<h1>Too many sign-ins at once</h1>');
  t.match(page.body, 'Please wait about a minute, then try again.');
  t.match(page.body, 'Error code: <code>too_many_requests</code>');
  t.equal(page.headers.get('cache-control'), 'no-store');

  const json = await get(authorizeUrl(lanyard.url, 'over-json'), { accept: 'application/json' });
  t.equal(json.status, 429, 'a client that is not a browser: 429 too');
  t.match(JSON.parse(json.body), { error: 'temporarily_unavailable', error_description: /too many requests/ }, 'the OAuth error body');
  t.ok(Number(json.headers.get('retry-after')) > 0, 'with Retry-After');

  const postOver = await fetch(`${lanyard.url}/oauth/authorize`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=demo-app',
  });
  await postOver.text();
  // oidc-provider serves only GET here (enableHttpPostMethods is off), but every method spends the budget.
  t.equal(postOver.status, 429, 'POST refused as well');
  t.equal(interactionsStored(lanyard), 4, 'nothing stored for refused requests');
  t.equal(handed(), 0, 'oidc-provider never saw them: the limit runs before middie');
  t.equal(lanyard.logs.filter((l) => l.includes('"event":"rate_limit.exceeded"')).length, 1, 'one log line per window, not one per refusal');

  clock.advance(61_000);
  t.equal((await get(authorizeUrl(lanyard.url, 'next-minute-1'))).status, 303, 'a new minute: allowed again');
  t.equal((await get(authorizeUrl(lanyard.url, 'next-minute-2'))).status, 303, 'sixth sign-in of the hour');
  const hourly = await get(authorizeUrl(lanyard.url, 'hour-spent'));
  t.equal(hourly.status, 429, 'the hourly budget (6) is spent although the minute has room');
  const hourRetry = Number(hourly.headers.get('retry-after'));
  t.ok(hourRetry > 3400 && hourRetry <= 3600 - 60, `Retry-After is the rest of the hour (${hourRetry})`);
  t.match(hourly.body, /too many requests/);
  t.equal(interactionsStored(lanyard), 6, 'at most the hourly budget is stored');

  clock.advance(3600_000);
  t.equal((await get(authorizeUrl(lanyard.url, 'next-hour'))).status, 303, 'the next hour: allowed again');
});

t.test('sign-in pages: their own budget, a page with Retry-After; assets and other routes are not counted', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: configWith({ interaction_pages_per_minute: 3 }) } });
  const browser = new HttpBrowser();
  const screen = location(await browser.get(authorizeUrl(lanyard.url, 'pages')), lanyard.url);
  for (let i = 0; i < 3; i += 1) {
    const res = await browser.get(screen);
    await res.text();
    t.equal(res.status, 200, `view ${i + 1}: the organisation picker`);
  }
  const over = await get(`${screen.href}/password?org=demo-school`);
  t.equal(over.status, 429, 'the fourth view: 429');
  t.ok(Number(over.headers.get('retry-after')) > 0, 'Retry-After');
  t.match(over.headers.get('content-type'), /^text\/html/, 'always a page here');
  t.match(over.body, '<h1>Too many sign-ins at once</h1>');
  t.equal((await get(`${lanyard.url}/assets/lanyard.css`)).status, 200, 'assets are not counted');
  t.equal((await get(authorizeUrl(lanyard.url, 'still'))).status, 303, 'the authorize budget is separate');
  t.equal((await get(`${lanyard.url}/.well-known/openid-configuration`)).status, 200, 'discovery is not limited');
});

t.test('per client address: X-Forwarded-For counts only behind a trusted proxy', async (t) => {
  t.test('LANYARD_TRUST_PROXY=1: each client address has its own budget', async (t) => {
    const lanyard = await startLanyard(t, {
      env: { LANYARD_CONFIG: configWith({ authorize_per_minute: 2 }), LANYARD_TRUST_PROXY: '1' },
    });
    const school = { 'x-forwarded-for': '203.0.113.10' };
    for (let i = 0; i < 2; i += 1) t.equal((await get(authorizeUrl(lanyard.url, `a${i}`), school)).status, 303);
    t.equal((await get(authorizeUrl(lanyard.url, 'a-over'), school)).status, 429, 'the school address has spent its budget');
    t.equal((await get(authorizeUrl(lanyard.url, 'b'), { 'x-forwarded-for': '198.51.100.7' })).status, 303, 'another address has its own');
    // A client cannot escape by naming an address of its own: only the last hop (the proxy's view) counts.
    t.equal((await get(authorizeUrl(lanyard.url, 'spoof'), { 'x-forwarded-for': '192.0.2.1, 203.0.113.10' })).status, 429,
      'a made-up earlier hop does not change the address');
    t.equal((await get(authorizeUrl(lanyard.url, 'v6a'), { 'x-forwarded-for': '2001:db8:1:2::1' })).status, 303);
    t.equal((await get(authorizeUrl(lanyard.url, 'v6b'), { 'x-forwarded-for': '2001:db8:1:2::2' })).status, 303);
    t.equal((await get(authorizeUrl(lanyard.url, 'v6c'), { 'x-forwarded-for': '2001:db8:1:2:ffff::3' })).status, 429,
      'IPv6 addresses of one /64 share a budget');
  });

  t.test('no trusted proxy: X-Forwarded-For is ignored, so it cannot buy a new budget', async (t) => {
    const lanyard = await startLanyard(t, { env: { LANYARD_CONFIG: configWith({ authorize_per_minute: 2 }) } });
    for (let i = 0; i < 2; i += 1) {
      t.equal((await get(authorizeUrl(lanyard.url, `n${i}`), { 'x-forwarded-for': `198.51.100.${i}` })).status, 303);
    }
    t.equal((await get(authorizeUrl(lanyard.url, 'n-over'), { 'x-forwarded-for': '198.51.100.99' })).status, 429);
  });
});

async function sharedBudget(t: Test, backend: Backend) {
  const shared = await sharedStore(t, backend);
  shared.env.LANYARD_CONFIG = configWith({ authorize_per_minute: 6 });
  const a = await shared.start(t, { first: true });
  const b = await shared.start(t);
  const on = (origin: string, state: string) => get(authorizeUrl(origin, state));
  for (let i = 0; i < 3; i += 1) {
    t.equal((await on(a.origin, `a${i}`)).status, 303, `instance A, request ${i + 1}`);
    t.equal((await on(b.origin, `b${i}`)).status, 303, `instance B, request ${i + 1}`);
  }
  t.equal((await on(a.origin, 'a-over')).status, 429, 'A refuses the 7th: B\'s requests spent the same budget');
  t.equal((await on(b.origin, 'b-over')).status, 429, 'so does B');
  if (backend === 'sqlite') t.equal(interactionsStored(shared), 6, 'six interactions in the shared store');
}

t.test('two instances on one store share one budget', async (t) => {
  t.test('sqlite', (t) => sharedBudget(t, 'sqlite'));
  t.test('redis', (t) => sharedBudget(t, 'redis'));
});

t.test('the store fails while counting: 503 with Retry-After, never a 500, never let through', async (t) => {
  const redis = await startRedis(t);
  const lanyard = await startLanyard(t, {
    env: {
      LANYARD_STORE: redis.url,
      LANYARD_REDIS_PREFIX: `rl-${process.pid}`,
      LANYARD_KEY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    },
  });
  t.equal((await get(authorizeUrl(lanyard.url, 'up'))).status, 303, 'counted while Redis is up');
  await redis.stop();
  const handed = providerAnswered(lanyard);

  const page = await get(authorizeUrl(lanyard.url, 'down'), BROWSER);
  t.equal(page.status, 503, 'authorize: 503');
  t.equal(page.headers.get('retry-after'), '5', 'Retry-After');
  t.match(page.body, '<h1>Try again in a moment</h1>', 'a browser gets the "try again" page');
  const json = await get(authorizeUrl(lanyard.url, 'down-json'), { accept: 'application/json' });
  t.equal(json.status, 503);
  t.same(JSON.parse(json.body), { error: 'temporarily_unavailable', error_description: 'the service is temporarily unavailable; try again in a moment' });
  const screen = await get(`${lanyard.url}/interaction/some-uid`);
  t.equal(screen.status, 503, 'sign-in page: 503');
  t.ok(screen.headers.get('retry-after'), 'Retry-After');
  t.match(screen.body, '<h1>Try again in a moment</h1>');

  t.equal(handed(), 0, 'the limiter answered: oidc-provider never saw the requests');
  t.ok(lanyard.logs.some((l) => l.includes('store unavailable while rate limiting')), 'logged as a store failure');
  t.notOk(lanyard.logs.some((l) => /"statusCode":500/.test(l)), 'no 500');

  await redis.start();
  let status = 0;
  for (let i = 0; i < 50 && status !== 303; i += 1) {
    status = (await get(authorizeUrl(lanyard.url, `back${i}`))).status;
    if (status !== 303) await new Promise((r) => setTimeout(r, 200));
  }
  t.equal(status, 303, 'Redis back: sign-ins start again');
});
