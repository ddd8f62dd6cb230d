import type { Lanyard } from './lanyard.js';

/** An answer of /developer/api: its status, headers and body (JSON when it parses, else the text). */
export interface Answer {
  status: number;
  headers: Headers;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Calls /developer/api with a Bearer token (none: no Authorization) and a JSON body, as a script would. */
export function apiClient(lanyard: Lanyard) {
  return async (token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const h: Record<string, string> = { ...headers };
    if (token !== undefined) h.authorization ??= `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(`${lanyard.url}/developer/api${path}`, { method, headers: h, body: payload });
    const text = await res.text();
    let json: unknown;
    try { json = text ? JSON.parse(text) : undefined; } catch { json = text; }
    return { status: res.status, headers: res.headers, json };
  };
}
