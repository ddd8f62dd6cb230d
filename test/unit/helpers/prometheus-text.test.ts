import t from 'tap';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';

/** The test reader of the exposition format must refuse what Prometheus would, or the tests that use it prove nothing. */

const GOOD = `# HELP reqs_total Requests, by "route".\\nSecond line \\\\ here.
# TYPE reqs_total counter
reqs_total{route="/a",status="200"} 3
reqs_total{route="/b\\"c\\\\d\\ne",status="404"} 1 1700000000000
# HELP lat_seconds Latency.
# TYPE lat_seconds histogram
lat_seconds_bucket{le="0.1",route="/a"} 1
lat_seconds_bucket{le="1",route="/a"} 2
lat_seconds_bucket{le="+Inf",route="/a"} 3
lat_seconds_sum{route="/a"} 2.5
lat_seconds_count{route="/a"} 3
# TYPE lag gauge
lag Nan
up +Inf
`;

t.test('reads the format', async (t) => {
  const e = parsePrometheusText(GOOD);
  t.equal(sampleValue(e, 'reqs_total', { route: '/a' }), 3);
  t.equal(sampleValue(e, 'reqs_total', { status: '404' }), 1);
  t.ok(e.samples.some((s) => s.labels.route === '/b"c\\d\ne'), 'label escapes undone');
  t.equal(e.families.get('reqs_total')!.help, 'Requests, by "route".\nSecond line \\ here.');
  t.equal(e.families.get('lat_seconds')!.samples.length, 5, 'histogram lines belong to their family');
  t.ok(Number.isNaN(sampleValue(e, 'lag')!), 'NaN in any case, as Go reads it');
  t.equal(sampleValue(e, 'up'), Infinity);
  t.equal(sampleValue(e, 'missing'), undefined);
  t.throws(() => sampleValue(e, 'reqs_total'), /matches 2 samples/);
});

const BAD: [string, string, RegExp][] = [
  ['no final line feed', 'a 1', /must end with a line feed/],
  ['a value that is not a number', 'a one\n', /not a sample value/],
  ['no value', 'a{x="1"}\n', /expected " value/],
  ['a bad metric name', '1a 1\n', /not a metric name/],
  ['a bad label name', 'a{1x="1"} 1\n', /not a label name/],
  ['an unquoted label value', 'a{x=1} 1\n', /not quoted/],
  ['a bad escape', 'a{x="\\t"} 1\n', /bad escape/],
  ['an unterminated label value', 'a{x="1} 1\n', /unterminated|expected/],
  ['a label given twice', 'a{x="1",x="2"} 1\n', /given twice/],
  ['a series given twice', 'a{x="1"} 1\na{x="1"} 2\n', /given twice/],
  ['an unknown type', '# TYPE a thing\na 1\n', /not a metric type/],
  ['TYPE after the samples', 'a 1\n# TYPE a counter\n', /TYPE of a/],
  ['a family in two groups', 'a 1\nb 1\na{x="1"} 2\n', /not one group/],
  ['a bad timestamp', 'a 1 soon\n', /not a timestamp/],
  ['a histogram without +Inf', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_count 1\n', /no \+Inf/],
  ['a histogram whose count is not +Inf', '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 3\n', /_count 3/],
  ['decreasing buckets', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n', /not increasing/],
];

for (const [what, text, error] of BAD) {
  t.test(`refuses ${what}`, async (t) => {
    t.throws(() => parsePrometheusText(text), error);
  });
}
