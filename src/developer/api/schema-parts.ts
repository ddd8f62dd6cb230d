import { MAX_URL_LENGTH } from '../../clients/callback-url.js';

/** Pieces the API's schemas are made of. */

export { instant, ref } from '../../http/openapi-parts.js';

/** A URL field: the services check the rules (https, loopback, fragments) and say what is wrong. */
export const url = (description: string) => ({ type: 'string', maxLength: MAX_URL_LENGTH, description }) as const;
