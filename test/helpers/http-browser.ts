/**
 * A minimal cookie-keeping HTTP client that behaves like a browser for the login screens (no JavaScript):
 * it follows nothing automatically, so tests see every redirect.
 */
export class HttpBrowser {
  readonly cookies = new Map<string, string>();
  /** Every Set-Cookie line received, as sent (its attributes too). */
  readonly setCookieLines: string[] = [];

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  #remember(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      this.setCookieLines.push(line);
      const [pair] = line.split(';', 1);
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', this.cookieHeader());
    const res = await this.send(url, { ...init, headers, redirect: 'manual' });
    this.#remember(res);
    return res;
  }

  /** Sends one request as it is (a subclass may send it another way: through a proxy). */
  protected send(url: string | URL, init: RequestInit): Promise<Response> {
    return fetch(url, init);
  }

  get(url: string | URL, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, { headers });
  }

  post(url: string | URL, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
  }
}

export const location = (res: Response, base: string): URL => {
  const to = res.headers.get('location');
  if (!to) throw new Error(`expected a redirect, got ${res.status}`);
  return new URL(to, base);
};

export const hiddenField = (page: string, name: string): string => {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
  if (!m) throw new Error(`no hidden field ${name} in page`);
  return m[1]!;
};
