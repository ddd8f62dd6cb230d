import type { SwaggerOptions } from '@fastify/swagger';
import { bearerApiOpenApiOptions } from '../../http/openapi.js';
import { REALM } from './auth.js';

/** The OpenAPI document of /developer/api (src/http/openapi.ts). */
export function openApiOptions(issuer: string): SwaggerOptions {
  return bearerApiOpenApiOptions(issuer, {
    title: 'Lanyard developer API',
    description: 'Register and run your apps on Lanyard from scripts: everything the developer area at /developer does. '
      + 'Authenticate with a personal API token (create one under Account → API tokens in the developer area) sent as '
      + '`Authorization: Bearer lyd_…`; tokens in the URL are refused. Errors are `{ error, error_description, fields? }`, '
      + 'where `fields` names each refused input by its JSON pointer. Every answer is `Cache-Control: no-store`.',
    bearer: {
      format: 'lyd_<id>_<secret>',
      description: `A personal API token (realm "${REALM}"). It expires (90 days by default, at most 365) and can be revoked at any time.`,
    },
    tags: [
      { name: 'account', description: 'The developer account a token belongs to.' },
      { name: 'tokens', description: 'Personal API tokens.' },
      { name: 'apps', description: 'Apps (OAuth clients): registration, details, default scopes, initiate login URI, logout URL, history, going live.' },
      { name: 'callback URLs', description: 'An app’s registered redirect_uri values.' },
      { name: 'secrets', description: 'Client secrets, several at once for rotation.' },
      { name: 'team', description: 'The developers who may manage an app.' },
      { name: 'schools', description: 'The schools a live app asks to use it, and their answers.' },
      { name: 'sandbox', description: 'The test school development apps sign in.' },
      { name: 'document', description: 'This OpenAPI document.' },
    ],
  });
}
