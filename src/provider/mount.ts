import middie from '@fastify/middie';
import type { FastifyInstance } from 'fastify';
import { isProviderPath } from './paths.js';
import type { ProviderHost } from './provider-host.js';

/**
 * Mounts oidc-provider under Fastify with @fastify/middie. Only the provider's own routes reach it, so
 * Fastify never parses their bodies (oidc-provider parses its own) and Lanyard's routes stay Fastify's.
 * Requests answered by the provider are logged here, since they never reach Fastify's reply.
 */
export async function mountProvider(app: FastifyInstance, host: ProviderHost): Promise<void> {
  await app.register(middie);
  app.use((req, res, next) => {
    if (!isProviderPath(req.url ?? '')) return next();
    const started = process.hrtime.bigint();
    const { method } = req;
    // RFC 9110 §9.3.2: HEAD is GET without the content. The provider answers it as a GET (same status and
    // headers, Content-Length included); Node's response, created for a HEAD request, sends no body bytes.
    if (method === 'HEAD') req.method = 'GET';
    res.on('finish', () => {
      app.log.info({
        event: 'http.provider',
        method,
        path: (req.url ?? '').split('?', 1)[0],
        statusCode: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      }, 'request completed');
    });
    host.handle(req, res);
  });
}
