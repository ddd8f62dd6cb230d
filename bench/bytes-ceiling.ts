/**
 * The machine's ceiling for serving a document: plain node:http answering every GET with the same bytes
 * (as many as a key set of one RSA-4096 key with its certificate), in as many processes as Lanyard has
 * workers (node:cluster), with no framework, hooks, log line or metrics. Measured with the documents' own
 * generator, it says how far any Node server could go on this machine, beside Lanyard and bare oidc-provider.
 *
 *   node bench/bytes-ceiling.ts PORT PROCESSES   (the server; prints `listening PORT` once every process listens)
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from './build.js';
import type { Figure } from './load.js';
import { freePort } from './ports.js';
import { spawnListening } from './proc.js';
import { measureRawGet } from './raw-get.js';

/** About the size of Lanyard's key set with one key (its `x5c` certificate is most of it). */
const DOCUMENT_BYTES = 2_600;

function serve(port: number, processes: number): void {
  if (cluster.isPrimary) {
    let listening = 0;
    for (let i = 0; i < processes; i += 1) {
      cluster.fork().on('listening', () => {
        listening += 1;
        if (listening === processes) process.stdout.write(`listening ${port}\n`);
      });
    }
    cluster.on('exit', (_worker, code) => { if (code !== 0) process.exit(1); });
    return;
  }
  const body = Buffer.alloc(DOCUMENT_BYTES, 'k');
  createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length }).end(body);
  }).listen(port, '127.0.0.1');
}

/** Starts the server in its own process group, measures it like the documents, and stops it. */
export async function measureBytesCeiling(processes: number, o: { seconds: number; concurrency: number }): Promise<Figure> {
  const port = await freePort();
  const { group } = await spawnListening('plain node:http', join(REPO, 'bench/bytes-ceiling.ts'), [String(port), String(processes)], { cwd: REPO, timeoutMs: 30_000 });
  try {
    return await measureRawGet(`http://127.0.0.1:${port}`, '/', o);
  } finally {
    await group.stop(5_000);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [port, processes] = process.argv.slice(2).map(Number) as [number, number];
  serve(port, processes);
}
