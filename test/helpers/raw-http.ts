import { connect, type Socket } from 'node:net';

/** One response as it came off the wire: the status, the headers (names lower-cased) and the body bytes. */
export interface RawResponse {
  status: number;
  headers: Map<string, string[]>;
  body: Buffer;
}

/**
 * One keep-alive HTTP/1.1 connection over node:net, sending requests one after another and reading each
 * response by the rules of RFC 9112 §6.3: no body after a HEAD or a 204/304, else Content-Length or
 * chunked. Whatever a server sends beyond that stays in the buffer and spoils the next response, so a
 * HEAD answered with a body shows up as a broken next answer (what fetch clients would suffer) — or in
 * `leftover()`.
 */
export class RawConnection {
  readonly #socket: Socket;
  readonly #host: string;
  #buffer = Buffer.alloc(0);
  #closed = false;
  #wake: () => void = () => {};

  private constructor(socket: Socket, host: string) {
    this.#socket = socket;
    this.#host = host;
    socket.on('data', (chunk: Buffer) => { this.#buffer = Buffer.concat([this.#buffer, chunk]); this.#wake(); });
    socket.on('close', () => { this.#closed = true; this.#wake(); });
    socket.on('error', () => { this.#closed = true; this.#wake(); });
  }

  /** Connects to 127.0.0.1:`port`; requests name `host` in their Host header (Lanyard's pages answer only the issuer's). */
  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket, host)));
      socket.once('error', reject);
    });
  }

  get closed(): boolean { return this.#closed; }

  /** Bytes received and not (yet) part of any response. */
  leftover(): Buffer { return this.#buffer; }

  /** Sends raw bytes (for requests no well-behaved client would write). */
  write(bytes: string): void { this.#socket.write(bytes, 'latin1'); }

  /** Sends `method path` with the connection's Host header (and `headers`), and reads the response. */
  async request(method: string, path: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<RawResponse> {
    const lines = [`${method} ${path} HTTP/1.1`, `Host: ${this.#host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    this.write(`${lines.join('\r\n')}\r\n\r\n`);
    return this.readResponse(method, timeoutMs);
  }

  /** Reads the next response, for a request made with `method`. */
  async readResponse(method: string, timeoutMs = 10_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    const end = await this.#until(() => { const i = this.#buffer.indexOf('\r\n\r\n'); return i < 0 ? undefined : i; }, deadline);
    const head = this.#buffer.subarray(0, end).toString('latin1').split('\r\n');
    this.#buffer = this.#buffer.subarray(end + 4);
    const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(head[0]!);
    if (!statusLine) throw new Error(`not an HTTP response: ${JSON.stringify(head[0])}`);
    const status = Number(statusLine[1]);
    const headers = new Map<string, string[]>();
    for (const line of head.slice(1)) {
      const i = line.indexOf(':');
      const name = line.slice(0, i).trim().toLowerCase();
      headers.set(name, [...(headers.get(name) ?? []), line.slice(i + 1).trim()]);
    }
    if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) {
      return { status, headers, body: Buffer.alloc(0) };
    }
    if (headers.get('transfer-encoding')?.some((v) => /chunked/i.test(v))) return { status, headers, body: await this.#chunked(deadline) };
    const length = headers.has('content-length') ? Number(headers.get('content-length')![0]) : undefined;
    if (length === undefined) {
      // Delimited by the end of the connection (RFC 9112 §6.3 rule 8).
      await this.#until(() => (this.#closed ? true : undefined), deadline);
      return { status, headers, body: this.#take(this.#buffer.length) };
    }
    await this.#until(() => (this.#buffer.length >= length ? true : undefined), deadline);
    return { status, headers, body: this.#take(length) };
  }

  /** Waits `ms` and tells whether any byte arrived meanwhile (a body nobody asked for). */
  async quietFor(ms: number): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.#buffer.length === 0;
  }

  /** Resolves once the server has closed the connection (or after `ms`, false). */
  async waitClosed(ms: number): Promise<boolean> {
    try {
      await this.#until(() => (this.#closed ? true : undefined), Date.now() + ms);
      return true;
    } catch {
      return false;
    }
  }

  close(): void { this.#socket.destroy(); }

  async #chunked(deadline: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = await this.#until(() => { const i = this.#buffer.indexOf('\r\n'); return i < 0 ? undefined : i; }, deadline);
      const size = parseInt(this.#buffer.subarray(0, lineEnd).toString('latin1'), 16);
      await this.#until(() => (this.#buffer.length >= lineEnd + 2 + size + 2 ? true : undefined), deadline);
      this.#take(lineEnd + 2);
      if (size === 0) {
        this.#take(2); // no trailers here
        return Buffer.concat(parts);
      }
      parts.push(this.#take(size));
      this.#take(2);
    }
  }

  #take(n: number): Buffer {
    const out = this.#buffer.subarray(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return Buffer.from(out);
  }

  async #until<T>(ready: () => T | undefined, deadline: number): Promise<T> {
    for (;;) {
      const value = ready();
      if (value !== undefined) return value;
      if (this.#closed) throw new Error('the server closed the connection');
      if (Date.now() > deadline) throw new Error('no complete response in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.#wake = () => { clearTimeout(timer); resolve(); };
      });
    }
  }
}
