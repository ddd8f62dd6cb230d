import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client, FlowError } from './http.js';
import { type Figure, Recorder } from './load.js';

/**
 * The lightest load the bench can make: GET of one path over keep-alive HTTP/1.1 connections, each a bare
 * socket that writes the same request bytes, reads the status line and Content-Length, skips the body and
 * asks again. For the documents (discovery, the key set) a server answers in tens of microseconds, undici's
 * own work per request (~50 µs of CPU on a 2-core VM) was most of the machine's second core: the bench was
 * measuring its generator. This one costs about two thirds of that, nearly all of it the kernel's.
 *
 * Every reply must carry Content-Length (both servers' documents do); anything else fails the run clearly.
 */
export async function rawGetLoad(origin: string, path: string, o: { concurrency: number; maxSeconds: number }): Promise<Figure> {
  const url = new URL(origin);
  const request = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: */*\r\n\r\n`, 'latin1');
  const rec = new Recorder();
  const start = performance.now();
  const deadline = start + o.maxSeconds * 1000;
  let sent = 0;
  const sockets: Socket[] = [];
  const loop = (): Promise<void> => new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(url.port), url.hostname);
    sockets.push(socket);
    socket.setNoDelay(true);
    let pending: Buffer | undefined; // bytes of a reply not yet complete
    let need = -1; // the whole reply's length once its head is read
    let status = 0;
    let t0 = 0;
    const ask = () => {
      if (performance.now() >= deadline) {
        socket.end();
        return;
      }
      sent += 1;
      t0 = performance.now();
      socket.write(request);
    };
    socket.on('connect', ask);
    socket.on('data', (chunk: Buffer) => {
      let buf = pending ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (need < 0) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) break;
          const head = buf.toString('latin1', 0, end);
          const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
          if (length === undefined) {
            socket.destroy(new Error(`${path}: a reply without Content-Length (${head.split('\r\n', 1)[0]})`));
            return;
          }
          status = Number(head.slice(9, 12));
          need = end + 4 + Number(length);
        }
        if (buf.length < need) break;
        if (status === 200) rec.ok(performance.now() - t0);
        else rec.fail(new FlowError(path, status));
        buf = buf.subarray(need);
        need = -1;
        if (buf.length === 0) {
          ask();
          break;
        }
      }
      pending = buf.length > 0 ? buf : undefined;
    });
    socket.on('error', reject);
    socket.on('close', () => (performance.now() >= deadline ? resolve() : reject(new Error(`${path}: the server closed a connection`))));
  });
  try {
    await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, loop));
  } catch (err) {
    for (const s of sockets) s.destroy();
    throw err;
  } finally {
    Client.sent.set(origin, (Client.sent.get(origin) ?? 0) + sent);
  }
  return { ...rec.figure((performance.now() - start) / 1000), concurrency: o.concurrency };
}

/**
 * A short warm-up (at most half a second), then the timed run, given to `around` (which may measure beside
 * it, such as the server's CPU): how every document is measured.
 */
export async function measureRawGet(
  origin: string,
  path: string,
  o: { seconds: number; concurrency: number },
  around: (run: () => Promise<Figure>) => Promise<Figure> = (run) => run(),
): Promise<Figure> {
  await rawGetLoad(origin, path, { concurrency: o.concurrency, maxSeconds: Math.min(0.5, o.seconds / 4) });
  return around(() => rawGetLoad(origin, path, { concurrency: o.concurrency, maxSeconds: o.seconds }));
}
