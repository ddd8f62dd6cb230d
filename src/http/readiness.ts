import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Store } from '../../adapters/store.js';
import { isStoreUnavailable, StoreUnavailableError } from '../errors.js';

/** Why a readable store is still not the one to serve (src/keys/identity-watch.ts): its cause and words. */
export interface NotServable { cause: string; message: string }

/**
 * One report's JSON. It never changes the answer: a report that cannot be made (a record it reads is not what
 * it expects) shows as `{ "error": … }` and a warning line, and only the store failing is a 503.
 */
async function reported(name: string, report: () => Promise<unknown>, log: FastifyBaseLogger): Promise<unknown> {
  try {
    return await report();
  } catch (err) {
    if (isStoreUnavailable(err)) throw err;
    log.warn({ event: 'readiness.report_failed', report: name, err }, 'a readiness report could not be made');
    return { error: `this report could not be made: ${(err as Error).message}` };
  }
}

/**
 * What else /readyz reports, each read from the store when asked: a name and the JSON it shows under that
 * name (today `config`: the configuration revisions, src/clients/config-revision-watch.ts).
 */
export type ReadinessReports = Record<string, () => Promise<unknown>>;

/**
 * `/healthz` is liveness: the process answers. `/readyz` is readiness: the store can be read and written
 * now, so a load balancer sends traffic; 503 while it cannot, and 200 again once it can (the backends
 * reconnect by themselves). `storeProblem`, when given, is asked next: a store emptied under the instance
 * (docs/storage.md → The store's identity) is 503 too, with its cause, and stays so until an operator acts.
 * `reports` add what an operator should see without changing the answer: instances running different
 * configuration revisions stay ready (docs/operations.md → Rolling configuration changes). All are cheap and
 * never cached.
 */
export function healthRoutes(
  app: FastifyInstance, store: Store, storeProblem?: () => Promise<NotServable | undefined>, reports: ReadinessReports = {},
): void {
  app.get('/healthz', async (_req, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' }));
  app.get('/readyz', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    let problem: NotServable | undefined;
    const extra: Record<string, unknown> = {};
    try {
      await store.ping();
      problem = await storeProblem?.();
      if (!problem) for (const [name, report] of Object.entries(reports)) extra[name] = await reported(name, report, req.log);
    } catch (err) {
      req.log.warn({ event: 'readiness.failed', err: (err as Error).cause ?? err }, 'not ready: the store cannot be read and written');
      return reply.code(503).header('Retry-After', String(StoreUnavailableError.RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable', store: store.backend });
    }
    if (problem) return reply.code(503).send({ status: 'unavailable', store: store.backend, cause: problem.cause, error_description: problem.message });
    return reply.send({ status: 'ready', store: store.backend, ...extra });
  });
}
