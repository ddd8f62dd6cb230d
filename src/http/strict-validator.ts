import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * The request validator of Lanyard's documented JSON APIs (/developer/api, /school/api), instead of Fastify's
 * default ajv, because the defaults would make the document lie: Fastify's ajv removes properties a closed
 * schema does not allow (`removeAdditional`) and coerces body types (`"5"` passes as 5), so a request the
 * document calls invalid would be accepted. Here:
 * - bodies are checked exactly as documented: no coercion, no removal, every problem reported at once;
 * - path and query parameters arrive as strings, so they are coerced (`?limit=20` is the integer 20);
 * - JSON Schema 2020-12, the dialect of OpenAPI 3.1 schema objects.
 */
function newAjv(coerce: boolean, shared: readonly object[]): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    coerceTypes: coerce,
    useDefaults: true,
    removeAdditional: false,
    strict: true,
    // Request bodies are small (each API sets its body limit), so reporting every error cannot be made expensive.
    allowUnionTypes: true,
  });
  addFormats.default(ajv);
  for (const schema of shared) ajv.addSchema(schema);
  return ajv;
}

interface Compiled {
  ajvs?: { bodies: Ajv2020; parameters: Ajv2020 };
  validators: Map<string, ValidateFunction>;
}

/**
 * One validator per API (its shared schemas), schema and kind for the whole process, made when first asked
 * for: the same schema always compiles to the same function, and building the app compiled them all again
 * (tests build a few hundred apps in one process).
 */
const byApi = new WeakMap<readonly object[], Compiled>();

function validator(shared: readonly object[], schema: unknown, body: boolean): ValidateFunction {
  let compiled = byApi.get(shared);
  if (!compiled) byApi.set(shared, compiled = { validators: new Map() });
  const key = `${body ? 'body' : 'parameters'}\n${JSON.stringify(schema)}`;
  let validate = compiled.validators.get(key);
  if (!validate) {
    compiled.ajvs ??= { bodies: newAjv(false, shared), parameters: newAjv(true, shared) };
    validate = (body ? compiled.ajvs.bodies : compiled.ajvs.parameters).compile(schema as object);
    compiled.validators.set(key, validate);
  }
  return validate;
}

/** Sets the scope's validator; `shared`: the request schemas routes refer to by `$id` (a module's constant). */
export function strictValidator(scope: FastifyInstance, shared: readonly object[]): void {
  scope.setValidatorCompiler(({ schema, httpPart }) => validator(shared, schema, httpPart === 'body'));
}
