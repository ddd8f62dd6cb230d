import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { HeaderPairs } from './hardening.js';

/**
 * Requests Fastify refuses before routing them (`frameworkErrors`): a path that is not valid
 * percent-encoding (`GET /%`), or a path parameter longer than the router allows. Fastify's own answer
 * skipped every hook, so it went without the security headers, and it repeated the path in its body.
 * Here it is answered like any other refusal: the security headers, `no-store`, the OAuth error shape,
 * and nothing of what was sent.
 */
export const unroutableRequest = (headers: HeaderPairs) => (error: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
  for (const [name, value] of headers) reply.header(name, value);
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  return reply.code(tooLong ? 414 : 400).header('Cache-Control', 'no-store').send({
    error: 'invalid_request',
    error_description: tooLong ? 'a part of the path is too long' : 'the path is not valid percent-encoding',
  });
};
