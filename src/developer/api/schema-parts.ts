import { MAX_URL_LENGTH } from '../../clients/callback-url.js';

/** Pieces the API's schemas are made of. */

/** A reference to a shared schema by its `$id` (rendered as `#/components/schemas/<$id>` in the document). */
export const ref = (id: string) => ({ $ref: `${id}#` });

export const instant = { type: 'string', format: 'date-time' } as const;

/** A URL field: the services check the rules (https, loopback, fragments) and say what is wrong. */
export const url = (description: string) => ({ type: 'string', maxLength: MAX_URL_LENGTH, description }) as const;
