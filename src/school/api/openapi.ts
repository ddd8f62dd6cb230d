import type { SwaggerOptions } from '@fastify/swagger';
import { bearerApiOpenApiOptions } from '../../http/openapi.js';
import { REALM } from './auth.js';

/** The OpenAPI document of /school/api (src/http/openapi.ts). */
export function openApiOptions(issuer: string): SwaggerOptions {
  return bearerApiOpenApiOptions(issuer, {
    title: 'Lanyard school API',
    description: 'What the school console at /school does, for school information systems and scripts: your schools, their classes and pupils, '
      + 'help codes, class links, new credentials, actions on people, staff roles, the school’s apps, roster imports, the audit trail and use per day. Authenticate with a staff API token (create one under Account → API tokens in the '
      + 'school console) sent as `Authorization: Bearer lys_…`; tokens in the URL are refused. A token acts as its holder, with their roles read '
      + 'afresh on every request: a teacher sees their classes, a school admin the whole school; anything else is 404. Every change is recorded in '
      + 'the school’s audit trail with the token’s holder as actor. Errors are `{ error, error_description, fields? }`. Every answer is `Cache-Control: no-store`.',
    bearer: {
      format: 'lys_<id>_<secret>',
      description: `A staff API token (realm "${REALM}"). It expires, can be revoked at any time, and stops working when its holder is no longer staff of any school.`,
    },
    tags: [
      { name: 'schools', description: 'The schools the token’s holder works in.' },
      { name: 'classes', description: 'Classes and their pupils.' },
      { name: 'audit', description: 'The school’s audit trail and use per day (school admins).' },
      { name: 'people', description: 'Actions on a person of the school, each recorded in the audit trail.' },
      { name: 'help codes', description: 'One-time codes for pupils who cannot sign in (teachers for their classes’ pupils).' },
      { name: 'class links', description: 'Links and codes that open a class’s name tiles on any device for a while (teachers for their classes).' },
      { name: 'credentials', description: 'New emoji passwords and passwords (school admins).' },
      { name: 'staff', description: 'The school’s staff and their roles (school admins).' },
      { name: 'apps', description: 'The apps the school uses, asking, and offered (school admins).' },
      { name: 'roster', description: 'Roster imports and their history (school admins).' },
      { name: 'document', description: 'This OpenAPI document.' },
    ],
  });
}
