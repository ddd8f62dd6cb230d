import type { ErrorObject } from 'ajv';
import type { FastifyError } from 'fastify';

/**
 * What a route schema refused, as Lanyard's JSON APIs say it (/developer/api, /school/api): each refused value
 * by its JSON pointer (RFC 6901) relative to the body, query or path parameters, and one sentence for people.
 */

export interface FieldProblem {
  path: string;
  message: string;
}

/** One pointer token (RFC 6901 §3): `~` and `/` escaped. */
export const escapePointerToken = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** One ajv problem as a field problem; `required` and `additionalProperties` point at the property itself. */
function schemaProblem(e: ErrorObject): FieldProblem {
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  if (e.keyword === 'required' && params.missingProperty !== undefined) {
    return { path: `${e.instancePath}/${escapePointerToken(params.missingProperty)}`, message: 'is required' };
  }
  if (e.keyword === 'additionalProperties' && params.additionalProperty !== undefined) {
    return { path: `${e.instancePath}/${escapePointerToken(params.additionalProperty)}`, message: 'is not a field of this request' };
  }
  return { path: e.instancePath, message: e.message ?? 'is not valid' };
}

/** Where the refused values were, for the description. */
const PARTS: Record<string, string> = {
  body: 'the request body was refused', querystring: 'the query parameters were refused',
  params: 'the path parameters were refused', headers: 'the request headers were refused',
};

/** A schema validation failure (`err.validation` set) as its fields and one description naming each. */
export function validationProblems(err: FastifyError): { description: string; fields: FieldProblem[] } {
  const fields = (err.validation ?? []).map((e) => schemaProblem(e as ErrorObject));
  const part = PARTS[err.validationContext ?? 'body'] ?? 'the request was refused';
  return { description: `${part}: ${fields.map((f) => `${f.path || '(the whole value)'} ${f.message}`).join('; ')}`, fields };
}
