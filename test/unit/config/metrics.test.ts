import t from 'tap';
import { ConfigError } from '../../../src/errors.js';
import { loadConfig } from '../../../src/config/config.js';
import { metricsOffNote, parseMetricsConfig } from '../../../src/config/metrics.js';

const TOKEN = 'a'.repeat(32);

function parse(env: Record<string, string>, production = false, mainPort = 3000) {
  const problems: string[] = [];
  const config = parseMetricsConfig(env, production, mainPort, problems);
  return { config, problems };
}

t.test('where /metrics is served by default and with each setting', async (t) => {
  t.same(parse({}).config, { mainPort: 'open', port: undefined, host: '127.0.0.1', token: undefined }, 'development: open on the main port');
  t.equal(parse({}, true).config.mainPort, 'off', 'production: off');
  t.same(parse({ LANYARD_METRICS_TOKEN: TOKEN }, true).config, { mainPort: 'token', port: undefined, host: '127.0.0.1', token: TOKEN }, 'a token protects the main port');
  t.same(parse({ LANYARD_METRICS_PORT: '9464' }).config, { mainPort: 'off', port: 9464, host: '127.0.0.1', token: undefined }, 'a port of their own, never the main one');
  t.same(parse({ LANYARD_METRICS_PORT: '9464', LANYARD_METRICS_HOST: '0.0.0.0', LANYARD_METRICS_TOKEN: TOKEN }, true).config,
    { mainPort: 'off', port: 9464, host: '0.0.0.0', token: TOKEN }, 'the port, on a chosen address, with a token');
  t.equal(parse({ LANYARD_METRICS_PORT: '0' }).config.port, 0, 'port 0: any free port');
});

t.test('each problem names its variable', async (t) => {
  t.match(parse({ LANYARD_METRICS_TOKEN: 'short' }).problems, [/^LANYARD_METRICS_TOKEN: must be at least 32 characters/]);
  t.match(parse({ LANYARD_METRICS_TOKEN: `${'a'.repeat(32)} b` }).problems, [/^LANYARD_METRICS_TOKEN:/], 'nothing a Bearer header cannot carry');
  t.match(parse({ LANYARD_METRICS_PORT: 'http' }).problems, [/^LANYARD_METRICS_PORT: "http" is not a port number/]);
  t.match(parse({ LANYARD_METRICS_PORT: '70000' }).problems, [/^LANYARD_METRICS_PORT: "70000"/]);
  t.match(parse({ LANYARD_METRICS_PORT: '-1' }).problems, [/^LANYARD_METRICS_PORT: "-1"/]);
  t.match(parse({ LANYARD_METRICS_PORT: '3000' }).problems, [/^LANYARD_METRICS_PORT: 3000 is PORT too/]);
  t.match(parse({ LANYARD_METRICS_HOST: '0.0.0.0' }).problems, [/^LANYARD_METRICS_HOST: only used with LANYARD_METRICS_PORT/]);
  t.same(parse({ LANYARD_METRICS_TOKEN: 'Op3n+SSL/rand0base64xx32bytes0123456789abc=' }).problems, [], 'openssl rand -base64 output is fine');
});

t.test('loadConfig refuses bad metrics settings with the rest, naming the variable', async (t) => {
  let error: unknown;
  try {
    loadConfig({ LANYARD_STORE: 'sqlite::memory:', LANYARD_METRICS_PORT: 'nine', LANYARD_METRICS_TOKEN: 'x' });
  } catch (err) {
    error = err;
  }
  t.ok(error instanceof ConfigError);
  t.match((error as Error).message, /LANYARD_METRICS_PORT: "nine"/);
  t.match((error as Error).message, /LANYARD_METRICS_TOKEN: must be/);
  t.same(loadConfig({ LANYARD_STORE: 'sqlite::memory:' }).metrics.mainPort, 'open', 'and hands the settings over');
});

t.test('the startup note when metrics are served nowhere', async (t) => {
  t.match(metricsOffNote(parse({}, true).config), /LANYARD_METRICS_PORT.*LANYARD_METRICS_TOKEN/);
  t.equal(metricsOffNote(parse({}).config), undefined, 'not in development');
  t.equal(metricsOffNote(parse({ LANYARD_METRICS_PORT: '9464' }, true).config), undefined, 'not with a port');
  t.equal(metricsOffNote(parse({ LANYARD_METRICS_TOKEN: TOKEN }, true).config), undefined, 'not with a token');
});
