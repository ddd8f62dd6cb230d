import { AggregatorRegistry, Histogram, Registry } from 'prom-client';
import t from 'tap';
import { CheapHistogram } from '../../../src/metrics/cheap-histogram.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';

/** CheapHistogram must scrape exactly as prom-client's Histogram does, alone and summed across workers. */

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVED: [string, number][] = [['/a', 0.0005], ['/a', 0.001], ['/a', 0.05], ['/b "quoted"\\', 3], ['/a', 0.2], ['/b "quoted"\\', 0.01]];

function both() {
  const cheapRegistry = new Registry();
  const promRegistry = new Registry();
  const cheap = new CheapHistogram({ name: 'h_seconds', help: 'Help.', labelName: 'route', buckets: BUCKETS, registry: cheapRegistry });
  const prom = new Histogram({ name: 'h_seconds', help: 'Help.', labelNames: ['route'], buckets: BUCKETS, registers: [promRegistry] });
  return { cheapRegistry, promRegistry, cheap, prom };
}

t.test("the same text as prom-client's Histogram", async (t) => {
  const { cheapRegistry, promRegistry, cheap, prom } = both();
  for (const [route, v] of OBSERVED) {
    cheap.observe(route, v);
    prom.observe({ route }, v);
  }
  const text = await cheapRegistry.metrics();
  t.equal(text, await promRegistry.metrics());
  const m = parsePrometheusText(text);
  t.equal(sampleValue(m, 'h_seconds_bucket', { route: '/a', le: '0.001' }), 2, 'an observation on a bound is in that bucket');
  t.equal(sampleValue(m, 'h_seconds_bucket', { route: '/b "quoted"\\', le: '+Inf' }), 2, 'label values are escaped');
});

t.test('series(): an observer bound to one label value; nothing is shown for a series never observed', async (t) => {
  const { cheapRegistry, cheap } = both();
  const a = cheap.series('/a');
  cheap.series('/never');
  a(0.05);
  a(0.05);
  const m = parsePrometheusText(await cheapRegistry.metrics());
  t.equal(sampleValue(m, 'h_seconds_count', { route: '/a' }), 2);
  t.equal(sampleValue(m, 'h_seconds_count', { route: '/never' }), undefined);
  cheap.reset();
  t.equal(sampleValue(parsePrometheusText(await cheapRegistry.metrics()), 'h_seconds_count', { route: '/a' }), undefined, 'reset');
});

t.test("summed across workers as prom-client's are", async (t) => {
  const workers = [both(), both()];
  workers.forEach((w, n) => {
    for (const [route, v] of OBSERVED.slice(n * 3, n * 3 + 3)) {
      w.cheap.observe(route, v);
      w.prom.observe({ route }, v);
    }
  });
  const cheap = AggregatorRegistry.aggregate(await Promise.all(workers.map((w) => w.cheapRegistry.getMetricsAsJSON())));
  const prom = AggregatorRegistry.aggregate(await Promise.all(workers.map((w) => w.promRegistry.getMetricsAsJSON())));
  t.equal(await cheap.metrics(), await prom.metrics());
});
