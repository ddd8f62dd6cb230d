import type { FastifyInstance } from 'fastify';
import { askPrimary, shareWithPrimary } from './cluster-worker.js';
import type { MetricsConfig } from '../config/metrics.js';
import { METRICS_PATH, metricsResponder } from './metrics-response.js';
import { type MetricsServer, startMetricsPort } from './metrics-server.js';
import type { Metrics } from './metrics.js';

/**
 * Serves the metrics as LANYARD_METRICS_* say (src/config/metrics.ts): `/metrics` on the main port (open, or
 * behind the bearer token), and/or a port of its own. In a cluster worker, a scrape on the main port is
 * answered with every worker's sum, which the primary gathers; the metrics port and the startup note are
 * then the primary's (cluster-primary.ts).
 */
export function metricsRoutes(app: FastifyInstance, metrics: Metrics, config: MetricsConfig): void {
  const worker = shareWithPrimary(metrics.registry);
  const scrape = worker ? () => askPrimary() : () => metrics.scrape();
  if (config.mainPort !== 'off') {
    const respond = metricsResponder(config.mainPort === 'token' ? config.token : undefined, scrape);
    app.get(METRICS_PATH, async (req, reply) => {
      const r = await respond(req.headers.authorization);
      return reply.code(r.status).headers(r.headers).send(r.body);
    });
  }
  if (worker) return;

  let server: MetricsServer | undefined;
  // onReady, not onListen: a metrics port that cannot be had (in use) stops startup instead of being a log line.
  app.addHook('onReady', async () => {
    server = await startMetricsPort(config, scrape, app.log, 'metrics served on their own port');
  });
  app.addHook('onClose', async () => server?.close());
}
