import type { SwaggerOptions } from '@fastify/swagger';

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
