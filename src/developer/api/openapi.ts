import type { SwaggerOptions } from '@fastify/swagger';
import { REALM } from './auth.js';

/**
 * The options of @fastify/swagger for /developer/api: an OpenAPI 3.1 document built from the route
 * schemas (dynamic mode), whose shared schemas keep their `$id` as their component name
 * (`#/components/schemas/App`) rather than the plugin's `def-0`, `def-1`, …
 */
export function openApiOptions(issuer: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lanyard developer API',
        version: '1',
        description: 'Register and run your apps on Lanyard from scripts: everything the developer area at /developer does. '
          + 'Authenticate with a personal API token (create one under Account → API tokens in the developer area) sent as '
          + '`Authorization: Bearer lyd_…`; tokens in the URL are refused. Errors are `{ error, error_description, fields? }`, '
          + 'where `fields` names each refused input by its JSON pointer. Every answer is `Cache-Control: no-store`.',
      },
      // Routes are documented with their full path, so the server is the host alone.
      servers: [{ url: new URL(issuer).origin }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'lyd_<id>_<secret>',
            description: `A personal API token (realm "${REALM}"). It expires (90 days by default, at most 365) and can be revoked at any time.`,
          },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'account', description: 'The developer account a token belongs to.' },
        { name: 'tokens', description: 'Personal API tokens.' },
        { name: 'apps', description: 'Apps (OAuth clients): registration, details, default scopes, initiate login URI, logout URL, history, going live.' },
        { name: 'callback URLs', description: 'An app’s registered redirect_uri values.' },
        { name: 'secrets', description: 'Client secrets, several at once for rotation.' },
        { name: 'team', description: 'The developers who may manage an app.' },
        { name: 'sandbox', description: 'The test school development apps sign in.' },
        { name: 'document', description: 'This OpenAPI document.' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}
