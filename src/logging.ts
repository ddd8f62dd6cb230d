import type { FastifyLoggerOptions } from 'fastify';
import type { LoggerOptions } from 'pino';

/** Query parameters whose values are credentials: never logged (Standards: no secret in a log line). */
const SECRET_PARAMS = /^(code|client_secret|refresh_token|access_token|id_token|id_token_hint|token|password|code_verifier|client_assertion)$/i;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url.slice(q + 1).split('&').map((pair) => {
    const name = pair.split('=', 1)[0]!;
    let decoded = name;
    try { decoded = decodeURIComponent(name.replace(/\+/g, ' ')); } catch { /* keep as sent */ }
    return SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
  });
  return `${url.slice(0, q)}?${query.join('&')}`;
}

export function loggerOptions(level: string): FastifyLoggerOptions & LoggerOptions {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.client_secret'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
}
