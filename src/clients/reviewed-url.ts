import { domainToUnicode } from 'node:url';

/**
 * How a URL that decides where codes or people are sent is shown to whoever reviews it (the operator approving
 * an app or a change to a live one: docs/developer-area.md → Changes to a live app). A host can be spelt so
 * that it reads as another one: `аpple.com` with a Cyrillic `а` is not `apple.com`. So a reviewer sees:
 * - the URL with its host in ASCII, the form DNS uses (`https://xn--pple-43d.com/`), whatever was typed;
 * - the host as it reads (Unicode), when it differs;
 * - a warning when a label of the host mixes writing systems (Latin with Cyrillic, Greek, …), the usual
 *   shape of a look-alike, or when the URL cannot be read at all.
 * The stored URL itself is never rewritten (src/clients/callback-url.ts: redirect_uri matches exactly).
 */
export interface ReviewedUrl {
  /** The URL with its host in ASCII (punycode), or the text as given when it does not parse. */
  ascii: string;
  /** The host as it reads, when it is an internationalised name (differs from its ASCII form). */
  unicodeHost?: string | undefined;
  /** Why a reviewer should look twice, when they should. */
  warning?: string | undefined;
}

/**
 * Scripts a host's letters are told apart by (Unicode's Script property). Letters of any other script count
 * as "another script"; digits, hyphens and dots belong to none (Common) and never make a host mixed.
 */
const SCRIPTS: readonly [string, RegExp][] = [
  'Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Devanagari', 'Bengali', 'Thai',
  'Han', 'Hiragana', 'Katakana', 'Hangul', 'Cherokee', 'Ethiopic',
].map((name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')]);

/** The writing systems of a label's letters, in order of appearance. */
function scriptsOf(label: string): string[] {
  const found = new Set<string>();
  for (const ch of label) {
    if (!/\p{L}/u.test(ch)) continue;
    found.add(SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'another script');
  }
  return [...found];
}

/**
 * Japanese writes one name in Han, Hiragana and Katakana (and Latin alongside): a label mixing only those
 * is ordinary, not a look-alike (UTS #39's "highly restrictive" profile allows the same sets; Korean and
 * Chinese likewise with Han).
 */
const USUAL_MIXES: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'], ['Latin', 'Han', 'Hangul'], ['Latin', 'Han'],
];

const mixed = (scripts: string[]): boolean =>
  scripts.length > 1 && !USUAL_MIXES.some((allowed) => scripts.every((s) => allowed.includes(s)));

export function reviewedUrl(text: string): ReviewedUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ascii: text, warning: 'not a URL Lanyard can read' };
  }
  // WHATWG URL parsing gives the host in ASCII already (IDNA: `аpple.com` → `xn--pple-43d.com`).
  const ascii = url.href;
  const unicode = domainToUnicode(url.hostname);
  const unicodeHost = unicode && unicode !== url.hostname ? unicode : undefined;
  const labels = (unicodeHost ?? url.hostname).split('.');
  const mixedLabel = labels.map((label) => ({ label, scripts: scriptsOf(label) })).find((l) => mixed(l.scripts));
  const warning = mixedLabel
    ? `the host mixes writing systems (${mixedLabel.scripts.join(' and ')} in “${mixedLabel.label}”): it may imitate another name`
    : undefined;
  return { ascii, unicodeHost, warning };
}

/** One line for a reviewer: the ASCII URL, then how its host reads and the warning, when there are. */
export function reviewLine(text: string): string {
  const r = reviewedUrl(text);
  const notes = [r.unicodeHost && `reads as ${r.unicodeHost}`, r.warning && `WARNING: ${r.warning}`].filter(Boolean);
  return notes.length ? `${r.ascii}  (${notes.join('; ')})` : r.ascii;
}
