import type { FastifyInstance } from 'fastify';
import type { Store } from '../../adapters/store.js';
import { StoreUnavailableError } from '../errors.js';

/**
 * `/healthz` is liveness: the process answers. `/readyz` is readiness: the store can be read and written
 * now, so a load balancer sends traffic; 503 while it cannot, and 200 again once it can (the backends
 * reconnect by themselves). Both are cheap and never cached.
 */
export function healthRoutes(app: FastifyInstance, store: Store): void {
  app.get('/healthz', async (_req, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' }));
  app.get('/readyz', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    try {
      await store.ping();
      return reply.send({ status: 'ready', store: store.backend });
    } catch (err) {
      req.log.warn({ event: 'readiness.failed', err: (err as Error).cause ?? err }, 'not ready: the store cannot be read and written');
      return reply.code(503).header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable', store: store.backend });
    }
  });
}
