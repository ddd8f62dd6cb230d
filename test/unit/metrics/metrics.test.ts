import t from 'tap';
import { openStore } from '../../../adapters/open-store.js';
import { ManualClock, systemClock } from '../../../src/clock.js';
import { StoreUnavailableError } from '../../../src/errors.js';
import type { CompletedRequest } from '../../../src/http/request-log.js';
import { Metrics } from '../../../src/metrics/metrics.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';

const scrape = async (metrics: Metrics) => parsePrometheusText((await metrics.scrape()).text);

const request = (o: Partial<CompletedRequest>): CompletedRequest => ({
  method: 'GET', route: '/healthz', statusCode: 200, seconds: 0.002, aborted: false, event: undefined, ...o,
});

t.test('label values stay within fixed sets, whatever clients send', async (t) => {
  const metrics = new Metrics();
  metrics.observeRequest(request({ method: 'BREW', route: undefined, statusCode: 404 }));
  metrics.observeRequest(request({ method: 'POST', route: '/oauth/token', event: { event: 'token.issued', grantType: 'urn:made:up' } }));
  metrics.observeRequest(request({ method: 'POST', route: '/oauth/token', event: { event: 'token.issued', grantType: 'refresh_token' } }));
  metrics.observeRequest(request({ method: 'POST', route: '/interaction/:uid/x', event: { event: 'login.failed', method: '<script>' } }));
  metrics.observeRequest(request({ method: 'POST', route: '/interaction/:uid/emoji', statusCode: 429, event: { event: 'login.throttled', method: 'emoji' } }));
  metrics.observeRequest(request({ event: { event: 'something.else', method: 'password' } }));
  const m = await scrape(metrics);
  t.equal(sampleValue(m, 'lanyard_http_requests_total', { method: 'other', route: 'unmatched', status: '404' }), 1, 'an unknown method and an unanswered path');
  t.equal(sampleValue(m, 'lanyard_tokens_issued_total', { grant_type: 'other' }), 1, 'an unknown grant type');
  t.equal(sampleValue(m, 'lanyard_tokens_issued_total', { grant_type: 'refresh_token' }), 1);
  t.equal(sampleValue(m, 'lanyard_sign_ins_total', { method: 'other', result: 'failed' }), 1, 'an unknown sign-in method');
  t.equal(sampleValue(m, 'lanyard_sign_ins_total', { method: 'emoji', result: 'throttled' }), 1);
  t.equal(sampleValue(m, 'lanyard_http_throttled_requests_total', { route: '/interaction/:uid/emoji' }), 1, 'a 429 is a throttled request');
  t.equal(m.samples.filter((s) => s.name === 'lanyard_sign_ins_total').length, 2, 'other events are no sign-ins');
  const values = new Set(m.samples.filter((s) => s.name.startsWith('lanyard_')).flatMap((s) => Object.values(s.labels)));
  t.notOk(values.has('BREW') || values.has('urn:made:up') || values.has('<script>'), 'nothing a client chose is a label value');
});

t.test('the latency histogram spans 1 ms to 10 s', async (t) => {
  const metrics = new Metrics();
  metrics.observeRequest(request({ seconds: 0.0004 }));
  metrics.observeRequest(request({ seconds: 7 }));
  metrics.observeRequest(request({ seconds: 60 }));
  const m = await scrape(metrics);
  t.equal(sampleValue(m, 'lanyard_http_request_duration_seconds_bucket', { route: '/healthz', le: '0.001' }), 1);
  t.equal(sampleValue(m, 'lanyard_http_request_duration_seconds_bucket', { route: '/healthz', le: '10' }), 2);
  t.equal(sampleValue(m, 'lanyard_http_request_duration_seconds_bucket', { route: '/healthz', le: '+Inf' }), 3);
});

t.test('every store operation is timed, its result and errors passed through unchanged', async (t) => {
  const metrics = new Metrics();
  const raw = await openStore('sqlite::memory:', systemClock);
  const store = metrics.timeStore(raw);
  t.equal(metrics.timeStore(store), store, 'timing a timed store again changes nothing');
  t.equal(store.backend, 'sqlite', 'plain fields are kept');
  await store.putSetting('colour', 'green');
  t.equal(await store.getSetting('colour'), 'green', 'results pass through');
  await store.oidc.upsert('Session', 'sid-1', { accountId: 'a' }, 60);
  t.same(await store.oidc.find('Session', 'sid-1'), { accountId: 'a' }, 'nested domains are timed too');
  let m = await scrape(metrics);
  for (const operation of ['putSetting', 'getSetting', 'oidc.upsert', 'oidc.find']) {
    t.equal(sampleValue(m, 'lanyard_store_operation_duration_seconds_count', { operation }), 1, `${operation} timed once`);
    t.ok(sampleValue(m, 'lanyard_store_operation_duration_seconds_sum', { operation })! > 0, `${operation} took some time`);
  }
  await raw.close();
  await t.rejects(store.getSetting('colour'), StoreUnavailableError, 'a failure is the same error');
  m = await scrape(metrics);
  t.equal(sampleValue(m, 'lanyard_store_operation_duration_seconds_count', { operation: 'getSetting' }), 2, 'and is timed too');
  const labels = m.samples.filter((s) => s.name === 'lanyard_store_operation_duration_seconds_count').map((s) => s.labels.operation!);
  t.notOk(labels.some((l) => /sid-1|colour|green|Session/.test(l)), 'no key, value or model in a label');
});

t.test('the key gauges are read at each scrape, from the key set and the clock', async (t) => {
  const metrics = new Metrics();
  const clock = new ManualClock(new Date('2026-03-10T00:00:00Z'));
  let notBefore = new Date('2026-03-01T00:00:00Z');
  let published = [{}, {}];
  metrics.watchKeys(() => ({ signing: { notBefore }, published }), clock);
  let m = await scrape(metrics);
  t.equal(sampleValue(m, 'lanyard_signing_keys_published'), 2);
  t.equal(sampleValue(m, 'lanyard_signing_key_age_seconds'), 9 * 86400, 'nine days since the 1st');
  t.equal(sampleValue(m, 'lanyard_signing_key_next_rotation_seconds'), 22 * 86400, 'twenty-two days to 1 April');
  clock.advance(3600_000);
  published = [{}];
  m = await scrape(metrics);
  t.equal(sampleValue(m, 'lanyard_signing_keys_published'), 1, 'a change is seen at the next scrape');
  t.equal(sampleValue(m, 'lanyard_signing_key_age_seconds'), 9 * 86400 + 3600);
  t.equal(sampleValue(m, 'lanyard_signing_key_next_rotation_seconds'), 22 * 86400 - 3600);
  // A new key set (a new signing key, the previous one still published): read at the next scrape.
  notBefore = new Date('2026-03-10T00:00:00Z');
  published = [{}, {}];
  m = await scrape(metrics);
  t.equal(sampleValue(m, 'lanyard_signing_keys_published'), 2, 'the newer source is read');
  t.equal(sampleValue(m, 'lanyard_signing_key_age_seconds'), 3600);
});

t.test('no key gauges before there are keys to watch', async (t) => {
  const m = await scrape(new Metrics());
  t.equal(m.families.get('lanyard_signing_keys_published'), undefined, 'no 0 that would look like an empty key set');
});

t.test('each Metrics has its own registry: two apps in one process do not mix', async (t) => {
  const a = new Metrics();
  const b = new Metrics();
  a.observeRequest(request({}));
  t.equal(sampleValue(await scrape(a), 'lanyard_http_requests_total', { route: '/healthz' }), 1);
  t.equal(sampleValue(await scrape(b), 'lanyard_http_requests_total', { route: '/healthz' }), undefined);
});
