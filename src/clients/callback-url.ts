/**
 * Checks the URLs a developer registers: callback URLs (SPEC: "`redirect_uri` in requests must match one of
 * these"), the logout_url, the initiate_login_uri (OpenID Connect Core §4), and an app's homepage and logo. A
 * URL that passes is kept exactly as given (only surrounding whitespace dropped, as a form field adds it):
 * /oauth/authorize compares redirect_uri with the registered string, character for character, so Lanyard never
 * rewrites what the developer will send.
 * Each refusal has its own message, saying what to change.
 */

export const MAX_URL_LENGTH = 2000;

/** Hosts where plain http is allowed: the developer's own machine (RFC 8252 §7.3 loopback redirects). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '[::1]', 'localhost'];

export type UrlKind = 'callback' | 'logout' | 'initiateLogin' | 'homepage' | 'logo';

interface KindRules {
  /** How the messages name it. */
  noun: string;
  /** Fragments are refused where a code or token is appended (OAuth 2.0 §3.1.2: no fragment). */
  fragment: boolean;
  /** Why a fragment is refused (where it is): what Lanyard puts in the query instead. */
  fragmentWhy?: string;
  /** Wildcards are refused where matching is exact (a `*` would suggest a pattern that never matches). */
  wildcard: boolean;
  /** Why a wildcard is refused, when not because URLs are matched. */
  wildcardWhy?: string;
  example: string;
}

const RULES: Record<UrlKind, KindRules> = {
  callback: {
    noun: 'A callback URL', fragment: false, wildcard: false, example: 'https://app.example.com/callback',
    fragmentWhy: 'the code is sent in the query, and a fragment would be dropped',
  },
  // The same rules as a callback URL: a launch sends iss, login_hint and target_link_uri in its query (OpenID Connect Core §4).
  initiateLogin: {
    noun: 'An initiate login URI', fragment: false, wildcard: false, example: 'https://app.example.com/login/lanyard',
    fragmentWhy: 'a launch sends iss, login_hint and target_link_uri in the query, and a fragment never reaches your server',
    wildcardWhy: 'Lanyard sends the browser to exactly the URI registered',
  },
  logout: { noun: 'A logout URL', fragment: true, wildcard: false, example: 'https://app.example.com/signed-out' },
  homepage: { noun: 'A homepage', fragment: true, wildcard: true, example: 'https://app.example.com' },
  logo: { noun: 'A logo URL', fragment: true, wildcard: true, example: 'https://app.example.com/logo.png' },
};

export type UrlCheck = { ok: true; url: string } | { ok: false; message: string };

/** Checks one URL of the given kind: the URL to store, or the one message that says what is wrong. */
export function checkUrl(input: string, kind: UrlKind): UrlCheck {
  const r = RULES[kind];
  const refuse = (message: string): UrlCheck => ({ ok: false, message });
  const value = input.trim();
  if (value === '') return refuse(`Enter a URL, for example ${r.example}.`);
  if (value.length > MAX_URL_LENGTH) return refuse(`${r.noun} can be at most ${MAX_URL_LENGTH} characters long.`);
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f\\]/.test(value)) return refuse(`${r.noun} cannot contain spaces, line breaks or backslashes.`);
  if (!r.wildcard && value.includes('*')) {
    return refuse(`${r.noun} cannot contain a wildcard (*): ${r.wildcardWhy ?? 'Lanyard matches URLs exactly, so register each one as your app sends it'}.`);
  }
  if (!r.fragment && value.includes('#')) {
    return refuse(`${r.noun} cannot contain a fragment (the part from #): ${r.fragmentWhy ?? 'a fragment would be dropped'}.`);
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (!scheme || (!value.includes('://') && scheme !== 'http' && scheme !== 'https')) {
    return refuse(`${r.noun} must be an absolute URL, starting with https:// (for example ${r.example}).`);
  }
  if (scheme !== 'https' && scheme !== 'http') {
    return refuse(`${r.noun} must start with https:// (or http:// for 127.0.0.1, [::1] or localhost); ${scheme}: URLs are not accepted.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse(`That is not a valid URL: check it for typos (for example ${r.example}).`);
  }
  if (!/^https?:\/\/[^/?#]/i.test(value) || url.hostname === '') {
    return refuse(`${r.noun} must name a host after ${scheme}:// (for example ${r.example}).`);
  }
  // `https://trusted.example@evil.example/` reads as one host and goes to another.
  const authority = value.slice(value.indexOf('://') + 3).split(/[/?#]/, 1)[0]!;
  if (authority.includes('@') || url.username || url.password) {
    return refuse(`${r.noun} cannot contain a user name or password (the part before @ in the host).`);
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.includes(url.hostname)) {
    return refuse(`${r.noun} must use https://. Plain http:// is allowed only on your own machine: 127.0.0.1, [::1] or localhost.`);
  }
  return { ok: true, url: value };
}
