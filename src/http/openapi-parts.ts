/**
 * Pieces the route schemas of Lanyard's bearer-token APIs are made of (/developer/api, /school/api): shared
 * schemas referred to by `$id`, documented answers with their no-store header, and the error answers each
 * API describes in its own words. The document is generated from them (src/http/openapi.ts).
 */

/** A reference to a shared schema by its `$id` (rendered as `#/components/schemas/<$id>` in the document). */
export const ref = (id: string) => ({ $ref: `${id}#` });

export const instant = { type: 'string', format: 'date-time' } as const;

const NO_STORE = { 'Cache-Control': { type: 'string', enum: ['no-store'], description: 'Always `no-store`: every answer is private.' } };

/** A success response documenting its body and the no-store header. */
export const ok = (description: string, schema: object) => ({ description, headers: NO_STORE, ...schema });
export const okRef = (description: string, schemaId: string) => ok(description, ref(schemaId));
export const okList = (description: string, schemaId: string) => ok(description, { type: 'array', items: ref(schemaId) });
export const noContent = (description: string) => ({ description, type: 'null', headers: NO_STORE });

const ERROR_HEADERS: Record<number, object> = {
  401: { 'WWW-Authenticate': { type: 'string', description: 'The Bearer challenge (RFC 6750 §3).' } },
  429: { 'Retry-After': { type: 'integer', description: 'Seconds to wait.' } },
  503: { 'Retry-After': { type: 'integer', description: 'Seconds to wait.' } },
};

/**
 * The error responses of an API's routes, each a `$ref` to its `Error` schema: `describe` says what each
 * status means there. The returned function lists 401, 500 and 503 (every authenticated route can give them)
 * and the statuses named.
 */
export function errorResponses(describe: Record<number, string>): (...statuses: number[]) => Record<number, object> {
  return (...statuses) => {
    const out: Record<number, object> = {};
    for (const status of [...new Set([...statuses, 401, 500, 503])].sort()) {
      out[status] = { description: describe[status], headers: { ...NO_STORE, ...ERROR_HEADERS[status] }, ...ref('Error') };
    }
    return out;
  };
}
