import type { SwaggerOptions } from '@fastify/swagger';
import { REALM } from './errors.js';

/**
 * The options of @fastify/swagger for /api: an OpenAPI 3.1 document built from the route schemas (dynamic
 * mode), whose shared schemas keep their `$id` as their component name (`#/components/schemas/User`).
 */
export function openApiOptions(issuer: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lanyard user API',
        version: '1',
        description: 'What an app may read with an access token from Lanyard’s token endpoint, issued for a user. '
          + 'Send it as `Authorization: Bearer <access_token>`; tokens in the URL or in a body are refused. '
          + 'Errors are `{ error, error_description }` with the RFC 6750 codes and a `WWW-Authenticate` challenge. '
          + 'Every answer is `Cache-Control: no-store`.',
      },
      // Routes are documented with their full path, so the server is the host alone.
      servers: [{ url: new URL(issuer).origin }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: `An access token from ${issuer}/oauth/token, issued for a user (realm "${REALM}"). `
              + 'It lasts 24 hours; refresh it with the refresh token.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'user', description: 'The signed-in user.' },
        { name: 'document', description: 'This OpenAPI document.' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}
