import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A request the HTTP parser cannot read (bad characters in the request line, a broken header, a timeout)
 * never reaches a route; the answer is written to the socket by hand, which is then closed. Fastify's
 * default writes a JSON body there, which corrupts the stream when the request was a HEAD (a HEAD
 * response has no body, RFC 9110 §9.3.2) and cannot tell one from another. So, as Node's own default does:
 * a status line, no body, `Connection: close`, and nothing at all when a response has already begun on this
 * connection (its bytes would be mixed with ours).
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  this.log.debug({ event: 'http.client_error', code: err.code, statusCode: status }, 'unreadable request');
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy(err);
}
