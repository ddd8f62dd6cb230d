import t from 'tap';
import type { RevisionReport } from '../../../src/clients/config-revision-watch.js';
import { Metrics } from '../../../src/metrics/metrics.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';

const scrape = async (metrics: Metrics) => parsePrometheusText((await metrics.scrape()).text);
const mine = { version: 3, hash: `sha256:${'a'.repeat(64)}` };
const agreed: RevisionReport = { mine, stored: undefined, running: [{ ...mine, instances: 2 }], mismatch: false };
const disagreed: RevisionReport = {
  mine, stored: undefined, running: [{ version: 4, hash: `sha256:${'b'.repeat(64)}`, instances: 1 }, { ...mine, instances: 1 }], mismatch: true, problem: 'x',
};

t.test('the configuration revision gauges: right from the first scrape, from one read of the store per scrape', async (t) => {
  const metrics = new Metrics();
  let reads = 0;
  let report = agreed;
  metrics.watchConfigRevision(async () => { reads += 1; return report; });
  let m = await scrape(metrics);
  t.equal(reads, 1, 'one read for the three gauges');
  t.equal(sampleValue(m, 'lanyard_config_revision_mismatch'), 0);
  t.equal(sampleValue(m, 'lanyard_config_revisions_running'), 1);
  t.equal(sampleValue(m, 'lanyard_config_revision_info', { revision: '3', hash: 'aaaaaaaaaaaa' }), 1);
  report = disagreed;
  m = await scrape(metrics);
  t.equal(sampleValue(m, 'lanyard_config_revision_mismatch'), 1, 'a change is seen at the next scrape');
  t.equal(sampleValue(m, 'lanyard_config_revisions_running'), 2);
});

t.test('a scrape that cannot read the store keeps the last values', async (t) => {
  const metrics = new Metrics();
  let fail = false;
  metrics.watchConfigRevision(async () => { if (fail) throw new Error('store down'); return disagreed; });
  await scrape(metrics);
  fail = true;
  const m = await scrape(metrics);
  t.equal(sampleValue(m, 'lanyard_config_revision_mismatch'), 1);
  t.equal(sampleValue(m, 'lanyard_config_revisions_running'), 2);
});
