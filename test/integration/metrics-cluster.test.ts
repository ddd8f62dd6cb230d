import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { type IncomingHttpHeaders, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import tap from 'tap';
import { projectRoot } from '../../src/package-files.js';
import { freePort } from '../helpers/lanyard.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';

/**
 * Metrics across workers, with a real node:cluster (test/fixtures/metrics-cluster.ts): whichever worker
 * answers /metrics on the shared port, and on the primary's metrics port, the figures are every worker's
 * sum; gauges that every worker has are not summed; a worker that does not answer makes the scrape a 503.
 */

interface Cluster { mainPort: number; metricsPort: number }
interface Teardown { teardown(fn: () => unknown): void }

async function startCluster(t: Teardown, ...args: string[]): Promise<Cluster> {
  const mainPort = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/fixtures/metrics-cluster.ts'), String(mainPort), ...args], {
    cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = await Promise.race([
    once(lines, 'line') as Promise<[string]>,
    once(child, 'exit').then(([code]) => { throw new Error(`the cluster exited (${String(code)}) before it was ready`); }),
  ]);
  const { metricsPort } = JSON.parse(line) as { metricsPort: number };
  return { mainPort, metricsPort };
}

/** GET on a connection of its own: the cluster hands each new connection to the next worker. */
function get(port: number, path: string): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    }).on('error', reject).end();
  });
}

tap.test('two workers: every scrape shows their sum, on the main port and on the metrics port', async (t) => {
  const cluster = await startCluster(t);
  const answeredBy = new Set<string>();
  for (const [i, port] of [cluster.mainPort, cluster.mainPort, cluster.mainPort, cluster.mainPort, cluster.metricsPort].entries()) {
    const res = await get(port, '/metrics');
    const where = i < 4 ? `main port, scrape ${i + 1} (worker ${String(res.headers['x-fixture-worker'])})` : 'metrics port';
    if (i < 4) answeredBy.add(String(res.headers['x-fixture-worker']));
    t.equal(res.status, 200, `${where}: 200`);
    t.equal(res.headers['cache-control'], 'no-store');
    const m = parsePrometheusText(res.text);
    t.equal(sampleValue(m, 'lanyard_http_requests_total', { method: 'POST', route: '/oauth/token', status: '200' }), 3, `${where}: 1 + 2 token requests`);
    t.equal(sampleValue(m, 'lanyard_tokens_issued_total', { grant_type: 'authorization_code' }), 3, `${where}: 1 + 2 tokens issued`);
    t.equal(sampleValue(m, 'lanyard_sign_ins_total', { method: 'password', result: 'succeeded' }), 3, `${where}: 1 + 2 sign-ins`);
    t.equal(sampleValue(m, 'lanyard_http_request_duration_seconds_count', { route: '/oauth/token' }), 3, `${where}: the histograms add up`);
    t.equal(Number(sampleValue(m, 'lanyard_http_request_duration_seconds_sum', { route: '/oauth/token' })!.toFixed(6)), 0.05, `${where}: 0.01 + 2 × 0.02 s`);
    t.equal(sampleValue(m, 'lanyard_http_request_duration_seconds_bucket', { route: '/oauth/token', le: '0.01' }), 1, `${where}: bucket by bucket`);
    t.equal(sampleValue(m, 'lanyard_signing_keys_published'), 1, `${where}: the fewest published keys of any worker, not a sum`);
    t.equal(sampleValue(m, 'lanyard_signing_key_age_seconds'), 9 * 86400, `${where}: the oldest signing key of any worker`);
    t.equal(sampleValue(m, 'lanyard_signing_key_next_rotation_seconds'), 22 * 86400, `${where}: the next rotation, once`);
    t.equal(m.samples.filter((s) => s.name === 'nodejs_version_info').length, 1, `${where}: Node's version once`);
  }
  t.same([...answeredBy].sort(), ['1', '2'], 'both workers answered scrapes on the main port');
});

tap.test('a worker that does not answer: the scrape is a 503 with Retry-After, not a partial sum', async (t) => {
  const cluster = await startCluster(t, '--silent-worker');
  const [main, own] = await Promise.all([
    fetch(`http://127.0.0.1:${cluster.mainPort}/metrics`),
    fetch(`http://127.0.0.1:${cluster.metricsPort}/metrics`),
  ]);
  for (const [where, res] of [['main port', main], ['metrics port', own]] as const) {
    t.equal(res.status, 503, `${where}: 503`);
    t.equal(res.headers.get('retry-after'), '5', `${where}: Retry-After`);
    t.notOk((await res.text()).includes('lanyard_http_requests_total'), `${where}: no partial figures`);
  }
});
