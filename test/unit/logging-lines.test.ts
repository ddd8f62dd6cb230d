import { Writable } from 'node:stream';
import pino from 'pino';
import t from 'tap';
import { loggerOptions, shortLogLines } from '../../src/logging.js';

t.test('short lines: one per answered request, one per event, secrets still redacted', async (t) => {
  let text = '';
  const out = new Writable({ write(chunk, _enc, cb) { text += String(chunk); cb(); } });
  const log = pino(loggerOptions('info'), shortLogLines(out));
  log.info({ reqId: 'r1', req: { method: 'GET', url: '/oauth/authorize?code=SECRET&state=s' }, res: { statusCode: 302 }, responseTime: 4.4 }, 'request completed');
  log.info({ event: 'token.issued', clientId: 'app', req: { method: 'POST', url: '/oauth/token' }, res: { statusCode: 200 }, responseTime: 7 }, 'tokens issued');
  log.info('Server listening at http://127.0.0.1:3000');
  log.warn({ event: 'login.throttled', clientId: 'app', wait: 30, reason: "too many 'guesses'" }, 'too many attempts');
  log.error({ err: new Error('disk full') }, 'sweep failed');
  const lines = text.trimEnd().split('\n');
  t.equal(lines.length, 4, `"listening" is said elsewhere:\n${text}`);
  t.match(lines[0], /^\d\d:\d\d:\d\d {2}GET \/oauth\/authorize\?code=\[redacted\]&state=s 302 4 ms$/);
  t.equal(lines[1]!.slice(8), '  POST /oauth/token 200 7 ms — tokens issued [token.issued] clientId=app', 'a request with its event');
  t.equal(lines[2]!.slice(8), `  WARN too many attempts [login.throttled] clientId=app wait=30 reason="too many 'guesses'"`);
  t.match(lines[3], /ERROR sweep failed: disk full$/);
  t.notMatch(text, /SECRET|\{"/, 'redacted, and no JSON');
});
