import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MetricsConfig, metricsOffNote } from '../config/metrics.js';
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

export interface MetricsLog {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/**
 * At startup, in the process that owns the metrics port (the only one, or the cluster primary): with
 * LANYARD_METRICS_PORT, listens there and logs where (`served` says whose metrics they are); with metrics
 * served nowhere, logs how to turn them on. Undefined when there is no metrics port.
 */
export async function startMetricsPort(config: MetricsConfig, scrape: Scrape, log: MetricsLog, served: string): Promise<MetricsServer | undefined> {
  const note = metricsOffNote(config);
  if (note) log.info({ event: 'metrics.off' }, note);
  const { port } = config;
  if (port === undefined) return undefined;
  const server = await listenMetrics({ ...config, port }, scrape,
    (err) => log.warn({ event: 'metrics.failed', err }, 'metrics could not be gathered'));
  log.info({ event: 'metrics.listening', url: metricsUrl(config.host, server.port) }, served);
  return server;
}

/** Listens; `onError` hears what a scrape threw that is not a 503 (answered 500), and server errors. */
async function listenMetrics(where: MetricsConfig & { port: number }, scrape: Scrape, onError: (err: unknown) => void): Promise<MetricsServer> {
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
const metricsUrl = (host: string, port: number): string =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}${METRICS_PATH}`;
