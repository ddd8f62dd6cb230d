import { request } from 'node:http';
import { connect } from 'node:net';
import Fastify from 'fastify';
import t from 'tap';
import { CLOSING_RETRY_AFTER_SECONDS, closeGracefully } from '../../../src/http/graceful-close.js';

/** A server with one request that never finishes by itself (a stuck or endlessly busy connection). */
async function serverWithStuckRequest() {
  const app = Fastify();
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => { arrived = resolve; });
  app.get('/stuck', async () => {
    arrived();
    await new Promise(() => {}); // never answers
  });
  app.get('/quick', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const req = request({ host: '127.0.0.1', port, path: '/stuck', agent: false });
  const ended = new Promise<string>((resolve) => {
    req.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
    req.on('response', () => resolve('answered'));
  });
  req.end();
  await inFlight;
  return { app, ended };
}

t.test('a request that never ends is cut after the grace period, and close completes', async (t) => {
  const { app, ended } = await serverWithStuckRequest();
  const started = Date.now();
  t.equal(await closeGracefully(app, 300), true, 'reports that connections were cut');
  const took = Date.now() - started;
  t.ok(took >= 290 && took < 5_000, `closed after the grace period (${took} ms)`);
  t.equal(await ended, 'ECONNRESET', 'the stuck client sees its connection reset');
});

t.test('a request arriving on a busy kept-alive connection while closing is answered 503 with Retry-After', async (t) => {
  const app = Fastify();
  let arrived!: () => void;
  const slowArrived = new Promise<void>((resolve) => { arrived = resolve; });
  app.get('/slow', async () => {
    arrived();
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { ok: true };
  });
  app.get('/quick', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const socket = connect(port, '127.0.0.1');
  let raw = '';
  socket.on('data', (chunk: Buffer) => { raw += chunk.toString(); });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await slowArrived;
  const closed = closeGracefully(app, 2_000);
  socket.write('GET /quick HTTP/1.1\r\nHost: x\r\n\r\n'); // the same connection, while the first is in flight
  await ended;
  t.equal(await closed, false, 'closed within the grace period');
  const [first, second] = raw.split(/(?=HTTP\/1\.1 )/);
  t.match(first, /^HTTP\/1\.1 200 /, 'the request in flight finished');
  t.match(second, /^HTTP\/1\.1 503 /, 'the next one on its connection: 503');
  t.match(second, new RegExp(`\\r\\nretry-after: ${CLOSING_RETRY_AFTER_SECONDS}\\r\\n`, 'i'), 'with Retry-After');
});

t.test('nothing in flight: closes at once and cuts nothing', async (t) => {
  const app = Fastify();
  app.get('/quick', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const res = await app.inject('/quick');
  t.equal(res.statusCode, 200);
  const started = Date.now();
  t.equal(await closeGracefully(app, 5_000), false, 'no connection cut');
  t.ok(Date.now() - started < 1_000, 'did not wait for the grace period');
});
