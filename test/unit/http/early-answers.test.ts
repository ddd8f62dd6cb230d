import { connect } from 'node:net';
import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import t from 'tap';
import { CLOSING_RETRY_AFTER_SECONDS, closeGracefully } from '../../../src/http/graceful-close.js';
import { EarlyAnswers } from '../../../src/http/early-answers.js';
import { type CompletedRequest, requestIds } from '../../../src/http/request-log.js';
import { loggerOptions } from '../../../src/logging.js';

/**
 * A Fastify app built the way buildApp builds Lanyard's: the early answers' server factory, one request id
 * counter, its logger's options (redaction and serializers), a hook that counts what reaches Fastify, and
 * `/doc` answered early.
 */
async function appWithEarlyDoc(t: { teardown(fn: () => unknown): void }, o: { trustProxy?: number; keepAliveTimeout?: number } = {}) {
  const early = new EarlyAnswers();
  const nextRequestId = requestIds();
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(JSON.parse(String(chunk)) as Record<string, unknown>); cb(); } });
  const trustProxy = o.trustProxy ? (_address: string, hop: number) => hop < o.trustProxy! : false as const;
  const app = Fastify({
    serverFactory: early.serverFactory, genReqId: nextRequestId, trustProxy,
    logger: { ...loggerOptions('info'), stream }, logController: new LogController({ disableRequestLogging: true }),
    ...(o.keepAliveTimeout ? { keepAliveTimeout: o.keepAliveTimeout } : {}),
  });
  const observed: CompletedRequest[] = [];
  early.attach(app, { observe: (r) => observed.push(r), nextRequestId, trustProxy });
  let reachedFastify = 0;
  app.addHook('onRequest', async (req) => {
    reachedFastify += 1;
    req.log.info({ req }, 'request completed'); // a line in the request log's shape, to compare ids with
  });
  early.get('/doc', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 9, 'X-Frame-Options': 'DENY' }).end('{"doc":1}');
    return 200;
  });
  early.get('/broken', () => { throw new Error('no document'); });
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const { port } = app.server.address() as { port: number };
  return { app, port, lines, observed, reached: () => reachedFastify };
}

t.test('GET and HEAD of the path are answered before Fastify, with one log line and one observation each', async (t) => {
  const { port, lines, observed, reached } = await appWithEarlyDoc(t, { trustProxy: 1 });
  const base = `http://127.0.0.1:${port}`;
  const get = await fetch(`${base}/doc?code=secret-code`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
  t.equal(get.status, 200);
  t.equal(await get.text(), '{"doc":1}', 'the answer’s bytes');
  t.equal(get.headers.get('x-frame-options'), 'DENY', 'its headers');
  const head = await fetch(`${base}/doc`, { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(head.headers.get('content-length'), '9', 'HEAD: the length GET has');
  t.equal(await head.text(), '', 'and no body');
  t.equal(reached(), 0, 'neither reached Fastify');

  const post = await fetch(`${base}/doc`, { method: 'POST' });
  t.equal(post.status, 404, 'another method is Fastify’s (nothing answers it there)');
  t.equal((await fetch(`${base}/doc/`)).status, 404, 'so is another path');
  t.equal(reached(), 2, 'both reached Fastify');

  const completed = lines.filter((l) => l.msg === 'request completed');
  t.equal(completed.length, 4, 'one line per request');
  const [first, second] = completed;
  t.same(first!.req, { method: 'GET', url: '/doc?code=[redacted]', ip: '203.0.113.9' }, 'the URL redacted, the client address through the trusted proxy');
  t.same(first!.res, { statusCode: 200 });
  t.type(first!.responseTime, 'number');
  t.same(second!.req, { method: 'HEAD', url: '/doc', ip: '127.0.0.1' });
  const ids = completed.map((l) => l.reqId);
  t.equal(new Set(ids).size, 4, `no two lines share a request id (${ids.join(', ')})`);
  t.same(observed.map((r) => [r.method, r.route, r.statusCode, r.aborted]), [['GET', '/doc', 200, false], ['HEAD', '/doc', 200, false]], 'the metrics observer saw the two');
});

t.test('an answer that throws is a 500 and a logged error, not the end of the process', async (t) => {
  const { port, lines } = await appWithEarlyDoc(t);
  const res = await fetch(`http://127.0.0.1:${port}/broken`);
  t.equal(res.status, 500);
  t.same(await res.json(), { error: 'server_error', error_description: 'the document could not be made' });
  t.ok(lines.some((l) => l.level === 50 && (l.err as { message?: string } | undefined)?.message === 'no document'), 'the error is logged');
  t.ok(lines.some((l) => l.msg === 'request completed' && (l.res as { statusCode: number }).statusCode === 500), 'and the request has its line');
  t.equal((await fetch(`http://127.0.0.1:${port}/doc`)).status, 200, 'the server carries on');
});

t.test('the server has the settings Fastify would have given its own', async (t) => {
  const { app } = await appWithEarlyDoc(t, { keepAliveTimeout: 4_321 });
  t.equal(app.server.keepAliveTimeout, 4_321);
  const defaults = await appWithEarlyDoc(t);
  t.equal(defaults.app.server.keepAliveTimeout, 72_000, "Fastify's default keep-alive");
});

t.test('while closing, the path is Fastify’s again: 503 with Retry-After on a busy kept-alive connection', async (t) => {
  const { app, port } = await appWithEarlyDoc(t);
  const socket = connect(port, '127.0.0.1');
  let raw = '';
  socket.on('data', (chunk: Buffer) => { raw += chunk.toString(); });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const closed = closeGracefully(app, 2_000);
  socket.write('GET /doc HTTP/1.1\r\nHost: x\r\n\r\n');
  await ended;
  await closed;
  const [first, second] = raw.split(/(?=HTTP\/1\.1 )/);
  t.match(first, /^HTTP\/1\.1 200 /, 'the request in flight finished');
  t.match(second, /^HTTP\/1\.1 503 /, 'the document asked for meanwhile: 503');
  t.match(second, new RegExp(`\\r\\nretry-after: ${CLOSING_RETRY_AFTER_SECONDS}\\r\\n`, 'i'), 'with Retry-After');
});
