import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A JSON document served often and changed rarely (discovery, the key set): serialised once, with a strong
 * ETag (RFC 9110 §8.8.3) so that a client holding it gets `304 Not Modified` and no body.
 */
export interface StaticJson {
  body: Buffer;
  etag: string;
}

export function staticJson(document: unknown): StaticJson {
  const body = Buffer.from(JSON.stringify(document), 'utf8');
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
}

/** RFC 9110 §13.1.2: If-None-Match is a list of entity tags, or `*`; weak comparison. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Sends the document (or 304 when the client has it) with the given headers already set on `reply`. */
export function sendStaticJson(req: FastifyRequest, reply: FastifyReply, doc: StaticJson, contentType: string) {
  reply.header('ETag', doc.etag);
  if (matches(req.headers['if-none-match'], doc.etag)) return reply.code(304).send();
  return reply.type(contentType).send(doc.body);
}
