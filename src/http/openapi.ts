import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

export interface BearerApi {
  title: string;
  description: string;
  /** The bearer scheme's description, and its format when it has one (`lyd_<id>_<secret>`). */
  bearer: { description: string; format?: string };
  tags: { name: string; description: string }[];
}

/**
 * The options of @fastify/swagger for one of Lanyard's bearer-token APIs (/api, /developer/api): an OpenAPI
 * 3.1 document built from the route schemas (dynamic mode), whose shared schemas keep their `$id` as their
 * component name (`#/components/schemas/App`) rather than the plugin's `def-0`, `def-1`, …
 */
export function bearerApiOpenApiOptions(issuer: string, api: BearerApi): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: api.title, version: '1', description: api.description },
      // Routes are documented with their full path, so the server is the host alone.
      servers: [{ url: new URL(issuer).origin }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            ...(api.bearer.format ? { bearerFormat: api.bearer.format } : {}),
            description: api.bearer.description,
          },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: api.tags,
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}

/**
 * GET /openapi.json in `api`: the document of `scope` (where @fastify/swagger is registered), serialised
 * once, on its first request, when every route is registered. No token needed.
 */
export function serveOpenApiDocument(api: FastifyInstance, scope: FastifyInstance, generatedFrom: string): void {
  let document: string | undefined;
  api.get('/openapi.json', {
    schema: {
      tags: ['document'],
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      description: `The OpenAPI 3.1 description of this API, generated from ${generatedFrom}. No token needed.`,
      security: [],
      response: { 200: { description: 'The OpenAPI document.', type: 'object', additionalProperties: true } },
    },
  }, async (_req, reply) => reply.type('application/json; charset=utf-8').send(document ??= JSON.stringify(scope.swagger())));
}
