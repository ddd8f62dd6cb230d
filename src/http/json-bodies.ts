import type { FastifyInstance } from 'fastify';

/**
 * JSON request bodies for a JSON API's scope (/developer/api, /school/api): JSON only, at most `limit` bytes
 * (each route unless it sets its own). An empty body counts as none, so `curl -X POST -H 'content-type:
 * application/json'` on an endpoint without a body works; prototype pollution is refused as by Fastify's
 * default parser.
 */
export function jsonBodies(scope: FastifyInstance, limit: number): void {
  const json = scope.getDefaultJsonParser('error', 'error');
  scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limit }, (req, raw, done) => {
    if ((raw as string).trim() === '') return done(null, undefined);
    return json(req, raw as string, done);
  });
  scope.addHook('onRoute', (route) => {
    route.bodyLimit ??= limit;
  });
}
