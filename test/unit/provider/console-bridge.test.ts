import { Writable } from 'node:stream';
import pino from 'pino';
import t from 'tap';
import { routeProviderConsole } from '../../../src/provider/console-bridge.js';

t.test("oidc-provider's console notices become structured log lines; other output is untouched", async (t) => {
  const { info, warn } = console;
  t.teardown(() => { console.info = info; console.warn = warn; });
  const lines: string[] = [];
  const log = pino({ level: 'info' }, new Writable({ write(c, _e, cb) { lines.push(String(c)); cb(); } }));
  const passedThrough: unknown[][] = [];
  console.warn = (...args: unknown[]) => { passedThrough.push(args); };
  console.info = (...args: unknown[]) => { passedThrough.push(args); };
  routeProviderConsole(log as never);

  console.warn('\x1b[31;1moidc-provider WARNING: already parsed request body detected\x1b[0m');
  console.info('oidc-provider NOTICE: something');
  console.warn('unrelated warning');

  t.equal(lines.length, 2);
  const [first, second] = lines.map((l) => JSON.parse(l) as { level: number; msg: string; event: string });
  t.equal(first!.level, 40);
  t.equal(first!.msg, 'oidc-provider WARNING: already parsed request body detected', 'colour codes removed');
  t.equal(first!.event, 'provider.notice');
  t.equal(second!.level, 30);
  t.same(passedThrough, [['unrelated warning']], 'everything else reaches the console as before');
});
