import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import tap from 'tap';
import { DEFAULT_THROTTLE_POLICY as P } from '../../src/accounts/login-throttle.js';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { openServices } from '../../src/startup/services.js';
import { HttpBrowser, hiddenField, location } from '../helpers/http-browser.js';
import { freePorts, type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { type Exposition, parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { DEMO_BASIC_AUTH, DEMO_CLIENT, demoAuthorizationUrl } from '../helpers/relying-party.js';
import { demoCredentials } from '../helpers/demo-credentials.js';
import { signInAfterAWrongPassword, TEACHER } from '../helpers/sign-in.js';
import { pooledKeyPair } from '../helpers/test-keys.js';

/**
 * /metrics over real HTTP (docs/operations.md → Metrics): what a sign-in, a code exchange and a refresh add up to, the
 * bearer token, the production default, the port of its own, and that no credential ever reaches a metric.
 */

const CALLBACK = DEMO_CLIENT.redirectUri;
const WRONG_PASSWORD = 'wrong-password-Zk81';
const METRICS_TOKEN = 'metrics-token-0123456789abcdefghijklmnopqrstuv';
const TOKEN_ROUTE = { method: 'POST', route: '/oauth/token', status: '200' };

const authorizeUrl = (lanyard: Lanyard, state: string) => demoAuthorizationUrl(lanyard.url, state);

const tokenRequest = (lanyard: Lanyard, params: Record<string, string>) => fetch(`${lanyard.url}/oauth/token`, {
  method: 'POST',
  headers: { authorization: DEMO_BASIC_AUTH, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(params).toString(),
});

/** GETs /metrics at `base`; the response, and its text read as Prometheus' format (which must parse). */
async function scrape(base: string, headers: Record<string, string> = {}): Promise<{ res: Response; text: string; metrics?: Exposition }> {
  const res = await fetch(`${base}/metrics`, { headers });
  const text = await res.text();
  return { res, text, ...(res.status === 200 ? { metrics: parsePrometheusText(text) } : {}) };
}

tap.test('a sign-in, a code exchange and a refresh are counted; no credential reaches the metrics', async (t) => {
  const lanyard = await startLanyard(t);
  const base = lanyard.url;
  const browser = new HttpBrowser();
  const secrets = demoCredentials(lanyard, WRONG_PASSWORD);

  const code = await signInAfterAWrongPassword(t, browser, base, authorizeUrl(lanyard, 'one'), TEACHER, WRONG_PASSWORD);
  t.ok(code, 'a code');
  secrets.set('the code', code);
  for (const [name, value] of browser.cookies) if (name.startsWith('_session')) secrets.set(`cookie ${name}`, value);

  const exchanged = await tokenRequest(lanyard, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK });
  t.equal(exchanged.status, 200, 'code exchanged');
  const tokens = await exchanged.json() as Record<string, string>;
  const refreshed = await tokenRequest(lanyard, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
  t.equal(refreshed.status, 200, 'refreshed');
  const again = await refreshed.json() as Record<string, string>;
  for (const [what, set] of [['first', tokens], ['refreshed', again]] as const) {
    for (const kind of ['access_token', 'refresh_token', 'id_token']) secrets.set(`the ${what} ${kind}`, set[kind]!);
  }

  const { res: scraped, text, metrics } = await scrape(base);
  t.equal(scraped.status, 200, 'open in development');
  t.match(scraped.headers.get('content-type'), /^text\/plain; version=0\.0\.4/, "prom-client's content type");
  t.equal(scraped.headers.get('cache-control'), 'no-store', 'never cached');
  const m = metrics!;
  t.equal(sampleValue(m, 'lanyard_http_requests_total', TOKEN_ROUTE), 2, 'two token requests answered 200');
  t.equal(sampleValue(m, 'lanyard_http_request_duration_seconds_count', { route: '/oauth/token' }), 2, 'and timed');
  t.equal(sampleValue(m, 'lanyard_http_requests_total', { method: 'POST', route: '/interaction/:uid/password', status: '401' }), 1, 'routes are patterns, never paths with ids');
  t.equal(sampleValue(m, 'lanyard_sign_ins_total', { method: 'password', result: 'succeeded' }), 1, 'one sign-in succeeded');
  t.equal(sampleValue(m, 'lanyard_sign_ins_total', { method: 'password', result: 'failed' }), 1, 'one failed');
  t.equal(sampleValue(m, 'lanyard_tokens_issued_total', { grant_type: 'authorization_code' }), 1, 'tokens for a code');
  t.equal(sampleValue(m, 'lanyard_tokens_issued_total', { grant_type: 'refresh_token' }), 1, 'tokens for a refresh token');
  // The provider's records go through the timed store: the code was consumed there.
  t.ok(sampleValue(m, 'lanyard_store_operation_duration_seconds_count', { operation: 'oidc.consume' })! >= 1, 'store operations are timed (oidc.consume)');
  t.ok(sampleValue(m, 'lanyard_store_operation_duration_seconds_sum', { operation: 'oidc.upsert' })! > 0, 'with a duration (oidc.upsert)');
  t.equal(sampleValue(m, 'lanyard_signing_keys_published'), 1, 'one published signing key (a new store)');
  const age = sampleValue(m, 'lanyard_signing_key_age_seconds')!;
  t.ok(age >= 0 && age < 32 * 86400, `the signing key's age (${age} s) is within its month`);
  const next = sampleValue(m, 'lanyard_signing_key_next_rotation_seconds')!;
  t.ok(next > 0 && next <= 31 * 86400, `the next rotation (${next} s) is within a month`);
  t.ok(m.families.get('process_cpu_user_seconds_total'), "Node's process metrics are there");
  for (const f of m.families.values()) t.ok(f.help && f.type, `${f.name} has HELP and TYPE`);

  for (const [what, value] of secrets) t.notOk(text.includes(value), `${what} is not in the metrics`);
});

tap.test('sign-in throttling is counted, as a sign-in result and as a throttled request', async (t) => {
  const lanyard = await startLanyard(t);
  const browser = new HttpBrowser();
  const first = location(await browser.get(authorizeUrl(lanyard, 'x')), lanyard.url);
  const uid = first.pathname.split('/')[2]!;
  const page = await (await browser.get(`${lanyard.url}/interaction/${uid}/password?org=demo-school`)).text();
  const form = { csrf: hiddenField(page, 'csrf'), org: hiddenField(page, 'org'), username: TEACHER.username, password: WRONG_PASSWORD };
  // A new device: its free attempts fail (the last one already answers 429), then one is refused unchecked.
  const statuses: number[] = [];
  for (let i = 0; i <= P.newDeviceFreeAttempts; i++) statuses.push((await browser.post(`${lanyard.url}/interaction/${uid}/password`, form)).status);
  t.same(statuses.slice(-2), [429, 429], `throttled (${statuses.join(', ')})`);
  const m = (await scrape(lanyard.url)).metrics!;
  t.equal(sampleValue(m, 'lanyard_sign_ins_total', { method: 'password', result: 'failed' }), P.newDeviceFreeAttempts, 'each checked attempt failed');
  t.equal(sampleValue(m, 'lanyard_sign_ins_total', { method: 'password', result: 'throttled' }), 1, 'the last was throttled, unchecked');
  t.equal(sampleValue(m, 'lanyard_http_throttled_requests_total', { route: '/interaction/:uid/password' }), 2, 'both 429s');
});

tap.test('LANYARD_METRICS_TOKEN: /metrics answers only its bearer token', async (t) => {
  const lanyard = await startLanyard(t, { env: { LANYARD_METRICS_TOKEN: METRICS_TOKEN } });
  const none = await scrape(lanyard.url);
  t.equal(none.res.status, 401, 'no token: 401');
  t.equal(none.res.headers.get('www-authenticate'), 'Bearer realm="metrics"', 'with a Bearer challenge');
  t.notOk(none.text.includes('lanyard_'), 'and no metrics');
  const wrong = await scrape(lanyard.url, { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` });
  t.equal(wrong.res.status, 401, 'a wrong token: 401');
  t.match(wrong.res.headers.get('www-authenticate'), /^Bearer .*error="invalid_token"/);
  const basic = await scrape(lanyard.url, { authorization: `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}` });
  t.equal(basic.res.status, 401, 'the token in another scheme: 401');
  const right = await scrape(lanyard.url, { authorization: `Bearer ${METRICS_TOKEN}` });
  t.equal(right.res.status, 200, 'the token: 200');
  t.equal(right.res.headers.get('cache-control'), 'no-store');
  t.equal(sampleValue(right.metrics!, 'lanyard_http_requests_total', { route: '/metrics', status: '401' }), 3, 'refused scrapes are counted');
  t.notOk(right.text.includes(METRICS_TOKEN), 'the token is not in the metrics');
  t.notOk(lanyard.logs.some((l) => l.includes(METRICS_TOKEN)), 'nor in the log');
});

tap.test('in production, /metrics is off unless asked for, and the log says how to turn it on', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-metrics-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({
    clients: [{ client_id: 'app', name: 'App', secret_hashes: ['sha256:f8yx58a2BsWFJYUcwb_hve7SJRoH_vwOJp4TgtPJdAY'], redirect_uris: ['https://app.example.org/cb'] }],
  }));
  const production = { NODE_ENV: 'production', LANYARD_CONFIG: config, LANYARD_ISSUER: 'https://id.example.org', LANYARD_COOKIE_KEYS: 'k'.repeat(40) };
  const off = await startLanyard(t, { env: production });
  const base = `http://127.0.0.1:${off.config.port}`;
  t.equal((await fetch(`${base}/healthz`)).status, 200, 'the server answers');
  t.equal((await scrape(base)).res.status, 404, '/metrics: 404');
  t.equal((await scrape(base, { authorization: `Bearer ${METRICS_TOKEN}` })).res.status, 404, 'whatever is sent');
  const note = off.logs.find((l) => l.includes('"event":"metrics.off"'));
  t.match(note, /LANYARD_METRICS_PORT/, 'the startup log names the settings that turn metrics on');
  t.match(note, /LANYARD_METRICS_TOKEN/);

  const withToken = await startLanyard(t, { env: { ...production, LANYARD_METRICS_TOKEN: METRICS_TOKEN } });
  const tokenBase = `http://127.0.0.1:${withToken.config.port}`;
  t.equal((await scrape(tokenBase)).res.status, 401, 'with LANYARD_METRICS_TOKEN: protected');
  t.equal((await scrape(tokenBase, { authorization: `Bearer ${METRICS_TOKEN}` })).res.status, 200, 'and served');
  t.notOk(withToken.logs.some((l) => l.includes('"event":"metrics.off"')), 'and not said to be off');
});

tap.test('LANYARD_METRICS_PORT: metrics on a port of their own, not on the main one', async (t) => {
  const [port, mainPort] = (await freePorts(2)) as [number, number];
  const lanyard = await startLanyard(t, { port: mainPort, env: { LANYARD_METRICS_PORT: String(port) } });
  const metricsBase = `http://127.0.0.1:${port}`;
  t.equal((await scrape(lanyard.url)).res.status, 404, 'the main port: 404');
  const own = await scrape(metricsBase);
  t.equal(own.res.status, 200, 'the metrics port: 200');
  t.equal(own.res.headers.get('cache-control'), 'no-store');
  t.match(own.res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  t.equal(sampleValue(own.metrics!, 'lanyard_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }), 1, 'it counts the main port’s requests');
  t.equal((await fetch(`${metricsBase}/`)).status, 404, 'nothing else on it');
  t.equal((await fetch(`${metricsBase}/metrics`, { method: 'POST' })).status, 405, 'and only GET');
  t.ok(lanyard.logs.some((l) => l.includes('"event":"metrics.listening"') && l.includes(`127.0.0.1:${port}/metrics`)), 'the log says where');
  await lanyard.stop();
  await t.rejects(fetch(`${metricsBase}/metrics`), 'closed with the app');
});

tap.test('LANYARD_METRICS_PORT with LANYARD_METRICS_TOKEN: the metrics port wants the token', async (t) => {
  const [port, mainPort] = (await freePorts(2)) as [number, number];
  await startLanyard(t, { port: mainPort, env: { LANYARD_METRICS_PORT: String(port), LANYARD_METRICS_TOKEN: METRICS_TOKEN } });
  const metricsBase = `http://127.0.0.1:${port}`;
  const none = await scrape(metricsBase);
  t.equal(none.res.status, 401, 'no token: 401');
  t.equal(none.res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
  t.equal((await scrape(metricsBase, { authorization: `Bearer ${METRICS_TOKEN}` })).res.status, 200, 'the token: 200');
});

tap.test('a metrics port that cannot be had stops startup, naming the setting', async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const port = (taken.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-metrics-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = loadConfig({ PORT: '0', LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}`, LANYARD_METRICS_PORT: String(port) });
  const services = await openServices(config, systemClock, pooledKeyPair);
  const app = await buildApp({ config, clock: systemClock, ...services, logStream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
  await t.rejects(app.listen({ port: 0, host: '127.0.0.1' }), { message: new RegExp(`^LANYARD_METRICS_PORT: cannot listen on 127\\.0\\.0\\.1:${port} \\(.*EADDRINUSE`) });
  await app.close();
  await services.store.close();
});
