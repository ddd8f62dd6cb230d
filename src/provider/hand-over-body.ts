import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ProviderContext } from './types.js';

/**
 * oidc-provider parses request bodies itself, from the request stream (lib/shared/selective_body.js). A
 * body already read upstream makes it warn "already parsed request body detected" and fall back to
 * `req.body`. A shim that has to read the body first (token-request.ts: URL parameters, secrets) hands it
 * over with this instead: from here on the request is a copy of the original whose unread stream carries
 * `body`, with Content-Type and Content-Length to match, so the library reads it the way it expects.
 */
export function handOverBody(ctx: ProviderContext, body: string, contentType: string): void {
  const original = ctx.req;
  const bytes = Buffer.from(body, 'utf8');
  // The copy's length is known: a chunked original's Transfer-Encoding no longer applies.
  const { 'transfer-encoding': _chunked, ...kept } = original.headers;
  const headers = { ...kept, 'content-type': contentType, 'content-length': String(bytes.length) };
  const copy = Object.assign(Readable.from([bytes], { objectMode: false }), {
    method: original.method,
    url: original.url,
    headers,
    rawHeaders: Object.entries(headers).flatMap(([name, value]) => [value].flat().flatMap((v) => [name, String(v)])),
    httpVersion: original.httpVersion,
    httpVersionMajor: original.httpVersionMajor,
    httpVersionMinor: original.httpVersionMinor,
    socket: original.socket,
    complete: true,
    trailers: {},
    rawTrailers: [],
    // Set by middie/express-style mounting; oidc-provider reads it to build URLs (oidc_context.js urlFor).
    ...('originalUrl' in original ? { originalUrl: (original as IncomingMessage & { originalUrl?: string }).originalUrl } : {}),
  }) as unknown as IncomingMessage;
  // Koa keeps the request on the context, its request and its response; all three must agree.
  ctx.req = copy;
  ctx.request.req = copy;
  ctx.response.req = copy;
}
