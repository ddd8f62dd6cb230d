import { REQUEST_NOTE_MAX } from '../../clients/school-app-requests.js';
import { instant } from './schema-parts.js';

/**
 * What /developer/api answers about schools (docs/developer-area.md → Asking a school): a school found by a
 * search, and where an app stands with one. Shared like schemas.ts's; the request body is in input-schemas.ts.
 */

const school = {
  type: 'object',
  required: ['id', 'slug', 'name'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'The school’s id in Lanyard: ask it with this, or with its slug.' },
    slug: { type: 'string', description: 'The short name in the school’s sign-in address.' },
    name: { type: 'string' },
  },
} as const;

export const SchoolSchema = { $id: 'School', description: 'A school.', ...school } as const;

export const AppSchoolSchema = {
  $id: 'AppSchool',
  type: 'object',
  description: 'Where the app stands with one school: `connected` (the school uses it), `pending` (asked, not answered yet) or `declined` (with the school’s reason).',
  required: ['school', 'status'],
  additionalProperties: false,
  properties: {
    school,
    status: { type: 'string', enum: ['connected', 'pending', 'declined'] },
    connected_at: { ...instant, description: 'When the school started using the app (`connected`).' },
    asked_at: { ...instant, description: 'When the app asked (`pending`, `declined`).' },
    note: { type: 'string', maxLength: REQUEST_NOTE_MAX, description: 'The note sent with the request.' },
    answered_at: { ...instant, description: 'When the school declined (`declined`).' },
    reason: { type: 'string', description: 'Why the school declined (`declined`).' },
  },
} as const;
