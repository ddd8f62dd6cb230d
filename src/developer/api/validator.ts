import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { INPUT_SCHEMAS } from './input-schemas.js';

/**
 * The API's own request validator, instead of Fastify's default ajv, because the defaults would make the
 * document lie: Fastify's ajv removes properties a closed schema does not allow (`removeAdditional`) and
 * coerces body types (`"5"` passes as 5), so a request the document calls invalid would be accepted. Here:
 * - bodies are checked exactly as documented: no coercion, no removal, every problem reported at once;
 * - path and query parameters arrive as strings, so they are coerced (`?limit=20` is the integer 20);
 * - JSON Schema 2020-12, the dialect of OpenAPI 3.1 schema objects.
 */
function newAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    coerceTypes: coerce,
    useDefaults: true,
    removeAdditional: false,
    strict: true,
    // Request bodies are at most 16 KiB (index.ts), so reporting every error cannot be made expensive.
    allowUnionTypes: true,
  });
  addFormats.default(ajv);
  for (const schema of INPUT_SCHEMAS) ajv.addSchema(schema);
  return ajv;
}

/**
 * One validator per schema and kind for the whole process, made when first asked for: the same schema
 * always compiles to the same function, and building the app compiled them all again (tests build a few
 * hundred apps in one process).
 */
const validators = new Map<string, ValidateFunction>();
let ajvs: { bodies: Ajv2020; parameters: Ajv2020 } | undefined;

function validator(schema: unknown, body: boolean): ValidateFunction {
  const key = `${body ? 'body' : 'parameters'}\n${JSON.stringify(schema)}`;
  let validate = validators.get(key);
  if (!validate) {
    ajvs ??= { bodies: newAjv(false), parameters: newAjv(true) };
    validate = (body ? ajvs.bodies : ajvs.parameters).compile(schema as object);
    validators.set(key, validate);
  }
  return validate;
}

export function apiValidator(scope: FastifyInstance): void {
  scope.setValidatorCompiler(({ schema, httpPart }) => validator(schema, httpPart === 'body'));
}
