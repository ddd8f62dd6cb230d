import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyLoggerOptions } from 'fastify';
import pino, { type LoggerOptions } from 'pino';

/** Query parameters whose values are credentials: never logged (Standards: no secret in a log line). */
const SECRET_PARAMS = /^(code|client_secret|refresh_token|access_token|id_token|id_token_hint|token|password|code_verifier|client_assertion)$/i;

/** A developer API token (`lyd_<id>_<secret>`, src/developer/api-tokens.ts). */
const API_TOKEN = /lyd_[0-9a-f]{16}_/i;

/** A URL's part as the server reads it (undecodable text as sent): what is matched, never what is written. */
const decoded = (part: string, plus: boolean): string => {
  try {
    return decodeURIComponent(plus ? part.replace(/\+/g, ' ') : part);
  } catch {
    return part;
  }
};

/** The path segments under /developer whose next segment is a link's token (invitations.ts, team-invitation-links.ts). */
const LINK_SEGMENTS = new Set(['invitations', 'team-invitations']);

/**
 * Where a path's secret segment is, as the router reads it (`named`: the indexes of its non-empty segments):
 * a developer link's token (`/developer/invitations/<token>`), or a class code (`/class/<CODE>`,
 * src/dashboard/class-link-routes.ts: the code opens a class's names; `class` in any case, since a near miss
 * still carries a code). -1: none.
 */
function secretSegment(plain: readonly string[], named: readonly number[]): number {
  const [first, second] = named.map((i) => plain[i]);
  if (first === 'developer' && second !== undefined && LINK_SEGMENTS.has(second)) return named[2] ?? -1;
  if (first?.toLowerCase() === 'class') return named[1] ?? -1;
  return -1;
}

/**
 * The request's URL for its log line, with credentials replaced by `[redacted]`: a link's token
 * (`/developer/invitations/<token>`, `/developer/team-invitations/<token>`), a class code (`/class/<CODE>`),
 * an API token anywhere, the values
 * of SECRET_PARAMS, and such a URL inside `next` (where a sign-in returns to). Matched on each part as the
 * router and the handlers decode it, so percent-encoding (`/developer/%69nvitations/…`, `?t=lyd%5F…`) hides
 * nothing from it; the rest is kept byte for byte.
 */
export function redactUrl(original: string): string {
  const q = original.indexOf('?');
  const segments = (q === -1 ? original : original.slice(0, q)).split('/');
  const plain = segments.map((s) => decoded(s, false));
  // Where each non-empty segment is (a doubled slash leaves an empty one), so /developer/invitations/<token> is found as the router reads it.
  const named = plain.flatMap((s, i) => (s ? [i] : []));
  const link = secretSegment(plain, named);
  const path = segments.map((s, i) => i === link || API_TOKEN.test(plain[i]!) ? '[redacted]' : s).join('/');
  if (q === -1) return path;
  const query = original.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const key = decoded(name, true);
    if (eq === -1) return API_TOKEN.test(key) ? '[redacted]' : pair;
    const value = decoded(pair.slice(eq + 1), true);
    if (SECRET_PARAMS.test(key) || API_TOKEN.test(value)) return `${name}=[redacted]`;
    // A sign-in's way back may be a link: redacted as a URL of its own (each level decoded once, so shorter: it ends).
    if (key === 'next') {
      const redacted = redactUrl(value);
      if (redacted !== value) return `${name}=${encodeURIComponent(redacted)}`;
    }
    return pair;
  });
  return `${path}?${query.join('&')}`;
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

/**
 * The logger of a `lanyard` command that drives a service (warnings only, to standard error), with the
 * server's redaction rules.
 */
export const commandLogger = (): FastifyBaseLogger => pino(loggerOptions('warn'), process.stderr) as unknown as FastifyBaseLogger;

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields every line has, or that the short line shows in its own way. */
const QUIET_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'event', 'reqId', 'responseTime']);

interface LogLine {
  level?: number; time?: number; msg?: string; event?: string; reqId?: string;
  req?: { method?: string; url?: string }; res?: { statusCode?: number }; responseTime?: number; err?: { message?: string };
}

/** Bytes of JSON lines a serving process gathers before it writes them. */
export const LOG_BUFFER_BYTES = 3072;
/**
 * The most one write holds: whole lines (a longer line alone), never above PIPE_BUF, so that on a pipe
 * shared with the primary and the other workers a write is never cut by another process's lines.
 */
export const LOG_WRITE_BYTES = 4096;
/** The longest a line waits for them: on a quiet server, lines still appear within a moment. */
export const LOG_FLUSH_MS = 250;
/**
 * The most a process holds while whatever reads its output does not (a stalled pipe): past it, lines are
 * dropped and counted, not kept until the process runs out of memory.
 */
export const LOG_HELD_BYTES = 16 * 1024 * 1024;
/** How often a count of dropped lines is offered to the output again. */
const DROP_NOTICE_MS = 1000;

/**
 * Where a serving process (the only one, or a worker) writes its log: short lines for a person at a
 * terminal; otherwise JSON lines by pino's asynchronous logging (its docs/asynchronous.md), gathered and
 * written LOG_BUFFER_BYTES to LOG_WRITE_BYTES at once, or every LOG_FLUSH_MS. Written one request's line at a
 * time, the writes cost the documents about a tenth of their rate (bench/HISTORY.md). pino writes what
 * it holds when the process exits (process.exit, an uncaught exception, the event loop empty); a process
 * killed by a signal it does not handle loses at most its last moment. `heldBytes` bounds what it holds
 * behind an output nobody reads (tests give a smaller bound than LOG_HELD_BYTES).
 */
export function serverLogStream(pretty: boolean, out: NodeJS.WriteStream, heldBytes = LOG_HELD_BYTES): pino.DestinationStream {
  if (pretty) return shortLogLines(out);
  const { fd } = out as { fd?: unknown };
  if (typeof fd !== 'number') return out; // a stream with no file descriptor of its own (a test's): written as it is
  const stream = pino.destination({
    dest: fd, sync: false, minLength: LOG_BUFFER_BYTES, maxWrite: LOG_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS, maxLength: heldBytes,
  });
  reportDroppedLines(stream);
  return stream;
}

/** Writes what a serving process holds now (serverLogStream), before a step that may end it. */
export const flushLog = (log: FastifyBaseLogger): void => { (log as unknown as Partial<Pick<pino.Logger, 'flush'>>).flush?.(); };

/**
 * Counts the lines dropped while LOG_HELD_BYTES were held, and once the output takes lines again writes one
 * warning with their number (`log.dropped`), so that a gap in the log says it is one.
 */
function reportDroppedLines(stream: ReturnType<typeof pino.destination>): void {
  let dropped = 0;
  let offering = false;
  let refused = false;
  stream.on('drop', () => {
    if (offering) refused = true;
    else dropped += 1;
  });
  const timer = setInterval(() => {
    // Destroyed (sonic-boom's own flag, not in its types): closing, and a write would throw.
    if (dropped === 0 || (stream as unknown as { destroyed: boolean }).destroyed) return;
    const lines = dropped;
    dropped = 0;
    offering = true;
    refused = false;
    stream.write(`${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, hostname: hostname(), event: 'log.dropped', lines, msg: `${lines} log lines dropped: the output was not read` })}\n`);
    offering = false;
    if (refused) dropped += lines; // still full: offered again later
  }, DROP_NOTICE_MS);
  timer.unref();
  stream.on('close', () => clearInterval(timer));
}

/**
 * A pino destination for a person at a terminal (LANYARD_LOG_FORMAT=pretty): one short line per request
 * (`12:03:04  GET /oauth/authorize?… 302 4 ms`, then its event if it had one) and per event, from the same
 * redacted objects the JSON lines carry, so nothing secret appears here either.
 */
export function shortLogLines(out: NodeJS.WritableStream): Writable {
  const format = (line: string): string | undefined => {
    let o: LogLine;
    try {
      o = JSON.parse(line) as LogLine;
    } catch {
      return line;
    }
    const time = new Date(o.time ?? Date.now()).toTimeString().slice(0, 8);
    const level = LEVELS[o.level ?? 30];
    const event = o.event ? ` [${o.event}]` : '';
    const fields = Object.entries(o)
      .filter(([k, v]) => !QUIET_FIELDS.has(k) && ['string', 'number', 'boolean'].includes(typeof v))
      .map(([k, v]) => ` ${k}=${typeof v === 'string' && /[\s"]/.test(v) ? JSON.stringify(v) : String(v)}`).join('');
    // A request's one line (src/http/request-log.ts): what was asked, the answer, the time, and its event.
    if (o.req && o.res) {
      const ms = o.responseTime === undefined ? '' : ` ${Math.round(o.responseTime)} ms`;
      const what = o.event ? ` — ${o.msg ?? ''}${event}${fields}` : '';
      return `${time}  ${level ? `${level} ` : ''}${o.req.method ?? ''} ${o.req.url ?? ''} ${o.res.statusCode ?? ''}${ms}${what}`;
    }
    // Said already: where it listens (the summary).
    if (o.msg?.startsWith('Server listening at')) return undefined;
    return `${time}  ${level ? `${level} ` : ''}${o.msg ?? ''}${event}${fields}${o.err?.message ? `: ${o.err.message}` : ''}`;
  };
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        const text = line && format(line);
        if (text) out.write(`${text}\n`);
      }
      done();
    },
  });
}
