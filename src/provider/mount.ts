import middie from '@fastify/middie';
import type { FastifyInstance } from 'fastify';
import { isProviderPath, ROUTES } from '../routes.js';
import type { ProviderHost } from './provider-host.js';

/**
 * Mounts oidc-provider under Fastify with @fastify/middie. Only the provider's own routes reach it, so
 * Fastify never parses their bodies (oidc-provider parses its own) and Lanyard's routes stay Fastify's.
 * Their log line is written by src/http/request-log.ts like any other request's.
 */
export async function mountProvider(app: FastifyInstance, host: ProviderHost): Promise<void> {
  await app.register(middie);
  app.use((req, res, next) => {
    if (!isProviderPath(req.url ?? '')) return next();
    // A POSTed authorization request is Fastify's: it becomes a GET (authorize-post.ts).
    if (req.method === 'POST' && req.url?.split('?', 1)[0] === ROUTES.authorization) return next();
    // RFC 9110 §9.3.2: HEAD is GET without the content. The provider answers it as a GET (same status and
    // headers, Content-Length included); Node's response, created for a HEAD request, sends no body bytes.
    if (req.method === 'HEAD') req.method = 'GET';
    host.handle(req, res);
  });
}
