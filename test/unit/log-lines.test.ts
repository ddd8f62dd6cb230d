import { Writable } from 'node:stream';
import pino from 'pino';
import t from 'tap';
import { loggerOptions, shortLogLines } from '../../src/logging.js';

t.test('short lines: one per answered request, one per event, secrets still redacted', async (t) => {
  let text = '';
  const out = new Writable({ write(chunk, _enc, cb) { text += String(chunk); cb(); } });
  const log = pino(loggerOptions('info'), shortLogLines(out));
  log.info({ reqId: 'r1', req: { method: 'GET', url: '/oauth/authorize?code=SECRET&state=s' } }, 'incoming request');
  log.info({ reqId: 'r1', res: { statusCode: 302 }, responseTime: 4.4 }, 'request completed');
  log.info({ event: 'http.provider', method: 'GET', path: '/oauth/authorize', statusCode: 302 }, 'request completed');
  log.info('Server listening at http://127.0.0.1:3000');
  log.warn({ event: 'login.throttled', clientId: 'app', wait: 30, reason: "too many 'guesses'" }, 'too many attempts');
  log.error({ err: new Error('disk full') }, 'sweep failed');
  const lines = text.trimEnd().split('\n');
  t.equal(lines.length, 3, `the provider's request line and "listening" are said elsewhere:\n${text}`);
  t.match(lines[0], /^\d\d:\d\d:\d\d {2}GET \/oauth\/authorize\?code=\[redacted\]&state=s 302 4 ms$/);
  t.equal(lines[1]!.slice(8), `  WARN too many attempts [login.throttled] clientId=app wait=30 reason="too many 'guesses'"`);
  t.match(lines[2], /ERROR sweep failed: disk full$/);
  t.notMatch(text, /SECRET|\{"/, 'redacted, and no JSON');
});
