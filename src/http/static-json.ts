import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderPairs } from './hardening.js';

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

/** Answers a request for a document: its status. */
export type StaticJsonAnswer = (req: IncomingMessage, res: ServerResponse, cacheControl: string) => number;

/**
 * How `doc` is answered: 200 with the bytes, or 304 when the client has them (with its ETag and lifetime,
 * RFC 9110 §15.4.5), both with `headers`. The header lists are made once, here.
 */
export function staticJsonAnswer(doc: StaticJson, contentType: string, headers: HeaderPairs): StaticJsonAnswer {
  const both = [...headers.flat(), 'ETag', doc.etag];
  const full = [...both, 'Content-Type', contentType, 'Content-Length', String(doc.body.length)];
  return (req, res, cacheControl) => {
    if (matches(req.headers['if-none-match'], doc.etag)) {
      res.writeHead(304, [...both, 'Cache-Control', cacheControl]).end();
      return 304;
    }
    res.writeHead(200, [...full, 'Cache-Control', cacheControl]).end(doc.body);
    return 200;
  };
}
