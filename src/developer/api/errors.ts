import type { FastifyInstance, FastifyReply } from 'fastify';
import { jsonErrors } from '../../http/json-errors.js';
import { escapePointerToken, validationProblems } from '../../http/validation-problems.js';
import { type FieldProblem, ValidationError } from '../errors.js';

/**
 * One error shape for the whole API (docs/developer-area.md): `{ error, error_description, fields? }`, with the status
 * that says what happened. Validation problems, from the route schemas or from the services, both name each
 * refused field by its JSON pointer (RFC 6901), so a script can point at the exact input.
 */
export interface ApiErrorBody {
  error: string;
  error_description: string;
  fields?: FieldProblem[];
}

/** A service's field path (`redirect_uri`, `default_scopes[1]`, `detail.name`) as a JSON pointer. */
export function toPointer(path: string): string {
  if (path === '' || path.startsWith('/')) return path;
  return `/${path.replace(/\[(\d+)\]/g, '.$1').split('.').map(escapePointerToken).join('/')}`;
}

export function sendApiError(reply: FastifyReply, status: number, body: ApiErrorBody): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').send(body);
}

/**
 * The API scope's error handler: every failure in the shape above, never a stack trace. Validation problems,
 * from the route schemas or from the services, name each refused field; the rest is the shared JSON path.
 */
export function apiErrorHandler(scope: FastifyInstance): void {
  jsonErrors(scope, {
    codes: 'lanyard',
    log: { event: 'developer_api.failed', message: 'developer API request failed' },
    serverError: 'Lanyard could not finish this request; it has been logged',
    describe: (err, reply) => {
      if (err.validation) {
        const { description, fields } = validationProblems(err);
        return sendApiError(reply, 400, { error: 'invalid_request', error_description: description, fields });
      }
      if (err instanceof ValidationError) {
        return sendApiError(reply, 400, {
          error: err.code,
          error_description: err.message,
          fields: err.fields.map((f) => ({ path: toPointer(f.path), message: f.message })),
        });
      }
      return undefined;
    },
  });
}
