import { Pool } from 'undici';

/**
 * The load generator shares the machine with the server, so it is kept light: undici pools with keep-alive
 * connections (no fetch, no WHATWG objects per request), bodies read only when a flow needs them, and
 * cookies as a plain Map.
 */
export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text when asked for (`read: true`), else '' (the body is discarded unread). */
  text: string;
}

export interface Req {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Read the body as text (forms, JSON); otherwise it is dumped. */
  read?: boolean;
  jar?: CookieJar;
  /** Aborts the request (the morning peak's cut-off). */
  signal?: AbortSignal;
}

/** Every request has a deadline, so a stuck server shows up as errors instead of a hung bench. */
const REQUEST_TIMEOUT_MS = 60_000;

export class Client {
  /** Requests sent to each origin over the whole run (to compare with the log lines Lanyard wrote). */
  static readonly sent = new Map<string, number>();
  readonly pool: Pool;
  /** `signal`, when given, aborts every request made through this client (unless one brings its own). */
  constructor(readonly origin: string, connections: number, private readonly signal?: AbortSignal) {
    this.pool = new Pool(origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
  }

  async request(r: Req): Promise<Reply> {
    const headers: Record<string, string> = { ...r.headers };
    if (r.jar?.size) headers.cookie = r.jar.header();
    if (r.body !== undefined) headers['content-type'] ??= 'application/x-www-form-urlencoded';
    Client.sent.set(this.origin, (Client.sent.get(this.origin) ?? 0) + 1);
    const res = await this.pool.request({ method: r.method ?? 'GET', path: r.path, headers, body: r.body, signal: r.signal ?? this.signal ?? null });
    let text = '';
    if (r.read) text = await res.body.text();
    else await res.body.dump();
    r.jar?.remember(res.headers['set-cookie']);
    return { status: res.statusCode, headers: res.headers, text };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** One browser's (one device's) cookies; sent to every path, like the tests' HttpBrowser. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();
  get size(): number { return this.#cookies.size; }

  header(): string {
    let out = '';
    for (const [k, v] of this.#cookies) out += `${out ? '; ' : ''}${k}=${v}`;
    return out;
  }

  remember(setCookie: string | string[] | undefined): void {
    if (!setCookie) return;
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const end = line.indexOf(';');
      const pair = end === -1 ? line : line.slice(0, end);
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
}

export const header = (r: Reply, name: string): string | undefined => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The Location of a redirect, resolved against the server, or undefined when the reply is no redirect. */
export function redirectTo(r: Reply, origin: string): URL | undefined {
  if (r.status < 300 || r.status > 399) return undefined;
  const to = header(r, 'location');
  return to ? new URL(to, origin) : undefined;
}

export const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

export const basicAuth = (id: string, secret: string): string =>
  // RFC 6749 §2.3.1: form-urlencode both parts before base64.
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export const hiddenField = (page: string, name: string): string | undefined =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];

/** A failure in a flow, carrying the HTTP status that broke it (0: no answer) for the error tallies. */
export class FlowError extends Error {
  constructor(readonly step: string, readonly status: number, readonly retryAfter?: string) {
    super(`${step}: ${status === 0 ? 'no answer' : `HTTP ${status}`}`);
  }
}

/** Turns a thrown error into the key it is counted under: the status, or the network error's code. */
export function errorKey(err: unknown): string {
  if (err instanceof FlowError) return err.status === 0 ? `${err.step}:no-answer` : String(err.status);
  const code = (err as { code?: string }).code;
  return code ?? (err as Error).name ?? 'error';
}
