import type { SwaggerOptions } from '@fastify/swagger';
import { bearerApiOpenApiOptions } from '../http/openapi.js';
import { REALM } from './errors.js';

/** The OpenAPI document of /api (src/http/openapi.ts). */
export function openApiOptions(issuer: string): SwaggerOptions {
  return bearerApiOpenApiOptions(issuer, {
    title: 'Lanyard user API',
    description: 'What an app may read with an access token from Lanyard’s token endpoint, issued for a user. '
      + 'Send it as `Authorization: Bearer <access_token>`; tokens in the URL or in a body are refused. '
      + 'Errors are `{ error, error_description }` with the RFC 6750 codes and a `WWW-Authenticate` challenge. '
      + 'Every answer is `Cache-Control: no-store`.',
    bearer: {
      description: `An access token from ${issuer}/oauth/token, issued for a user (realm "${REALM}"). `
        + 'It lasts 24 hours; refresh it with the refresh token.',
    },
    tags: [
      { name: 'user', description: 'The signed-in user.' },
      { name: 'document', description: 'This OpenAPI document.' },
    ],
  });
}
