import type { FastifyInstance } from 'fastify';
import { RequestRefused } from '../../clients/school-app-requests.js';
import { jsonErrors, sendJsonError } from '../../http/json-errors.js';
import { validationProblems } from '../../http/validation-problems.js';
import { SchoolInputError } from '../errors.js';

/**
 * /school/api says no as `{ error, error_description, fields? }` (src/http/json-errors.ts): a refused query or
 * path parameter or body field names each by its JSON pointer; 404 for anything of another school or not the caller's
 * (access.ts); 503 when the store fails.
 */
export function schoolApiErrors(scope: FastifyInstance): void {
  jsonErrors(scope, {
    codes: 'lanyard',
    log: { event: 'school_api.failed', message: 'school API request failed' },
    serverError: 'Lanyard could not finish this request; it has been logged',
    describe: (err, reply) => {
      if (err.validation) {
        const { description, fields } = validationProblems(err);
        return reply.code(400).header('Cache-Control', 'no-store').send({ error: 'invalid_request', error_description: description, fields });
      }
      if (err instanceof SchoolInputError && err.fields.length) {
        return reply.code(400).header('Cache-Control', 'no-store').send({
          error: err.code, error_description: err.message, fields: err.fields.map((f) => ({ path: `/${f.path}`, message: f.message })),
        });
      }
      if (err instanceof RequestRefused && err.field) {
        return reply.code(err.statusCode).header('Cache-Control', 'no-store').send({
          error: err.code, error_description: err.message, fields: [{ path: `/${err.field}`, message: err.message }],
        });
      }
      return undefined;
    },
  });
}

export const sendNotFound = (reply: Parameters<typeof sendJsonError>[0], what: string) =>
  sendJsonError(reply, 404, { error: 'not_found', error_description: `no such endpoint: ${what}` });
