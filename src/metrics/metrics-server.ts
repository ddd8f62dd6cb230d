import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_PATH, metricsResponder, type Scrape } from './metrics-response.js';

/**
 * LANYARD_METRICS_PORT: a small HTTP server that answers GET /metrics and nothing else, apart from the
 * main port, so the scraper's network alone can reach it. Served by the process itself, or in a cluster by
 * the primary (cluster-primary.ts), which alone sees every worker.
 */
export interface MetricsServer {
  /** The port it listens on (the one chosen when 0 was asked for). */
  readonly port: number;
  close(): Promise<void>;
}

export interface MetricsListen { port: number; host: string; token?: string | undefined }

/** Listens; `onError` hears what a scrape threw that is not a 503 (answered 500), and server errors. */
export async function listenMetrics(where: MetricsListen, scrape: Scrape, onError: (err: unknown) => void = () => {}): Promise<MetricsServer> {
  const respond = metricsResponder(where.token, scrape);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(`only ${METRICS_PATH} here\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Cache-Control': 'no-store' }).end();
      return;
    }
    respond(req.headers.authorization).then(
      (r) => res.writeHead(r.status, r.headers).end(req.method === 'HEAD' ? undefined : r.body),
      (err: unknown) => {
        onError(err);
        res.writeHead(500, { 'Cache-Control': 'no-store' }).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    const refused = (err: Error) => reject(new Error(`LANYARD_METRICS_PORT: cannot listen on ${where.host}:${where.port} (${err.message})`, { cause: err }));
    server.once('error', refused);
    server.listen(where.port, where.host, () => {
      server.off('error', refused).on('error', onError); // later errors (accepting a connection) are reported, never fatal
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    // A scraper's idle keep-alive connection must not hold shutdown up.
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** Where the metrics port answers, for the startup log. */
export const metricsUrl = (host: string, port: number): string =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}${METRICS_PATH}`;
