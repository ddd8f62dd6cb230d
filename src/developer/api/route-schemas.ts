import { errorResponses, ref } from '../../http/openapi-parts.js';

export { noContent, ok, okList, okRef } from '../../http/openapi-parts.js';

/** The building blocks of the route schemas: path parameters, documented answers and errors, security. */

const id = (description: string) => ({ type: 'string', minLength: 1, maxLength: 200, description }) as const;

export const clientIdParams = {
  type: 'object',
  required: ['client_id'],
  properties: { client_id: id('The app’s client_id.') },
} as const;

export const secretParams = {
  type: 'object',
  required: ['client_id', 'secret_id'],
  properties: { client_id: id('The app’s client_id.'), secret_id: id('The secret’s id.') },
} as const;

export const memberParams = {
  type: 'object',
  required: ['client_id', 'developer_id'],
  properties: { client_id: id('The app’s client_id.'), developer_id: { ...id('The team member’s developer id; an invitation’s is `address:` and the address invited.'), maxLength: 300 } },
} as const;

export const tokenParams = {
  type: 'object',
  required: ['token_id'],
  properties: { token_id: id('The token’s id.') },
} as const;

export const body = (schemaId: string) => ref(schemaId);

/** The path parameter most routes take. */
export type ClientIdParams = { client_id: string };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request was refused: `fields` says which inputs and why.',
  401: 'No valid token (`WWW-Authenticate: Bearer realm="lanyard-developer"`, with `error="invalid_token"` when a token was sent).',
  403: 'The token’s developer may not do this: only an app’s owners may do some things, and creating a token asks for the password, or a fresh code, again.',
  404: 'No such app (or one the developer is not in the team of), or no such item in it.',
  409: 'The action does not fit the current state.',
  429: 'Too many wrong passwords or codes: try again after `Retry-After` seconds (without it, new devices are stopped until the operator unlocks the account).',
  500: 'Lanyard failed; the error is logged.',
  503: 'The store is unavailable: try again after `Retry-After` seconds.',
};

/** The error responses a route can give: 401, 500 and 503 on every authenticated route, plus the ones listed. */
export const errors = errorResponses(ERROR_DESCRIPTIONS);
