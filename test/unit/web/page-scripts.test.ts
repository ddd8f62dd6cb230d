import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { interactionsPublicDir, webPublicDir } from '../../../src/package-files.js';

/**
 * The pages' scripts say nothing in English of their own: every word they put on a page comes from the page
 * (data- attributes in the page's language, src/web/waits.ts and the emoji keyboard's data-said).
 */

// The scripts as served, from the project's folders (this test runs from test/ and from dist/test/ alike).
const COUNTDOWN = readFileSync(join(webPublicDir, 'countdown.js'), 'utf8');
const EMOJI = readFileSync(join(interactionsPublicDir, 'emoji.js'), 'utf8');

/** The string and template literals of a script (its comments left out). */
const literals = (source: string): string[] => {
  const code = source.replace(/^\s*\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
  return [...code.matchAll(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]);
};

t.test('no English words in what the scripts write', async (t) => {
  for (const [name, source] of [['countdown.js', COUNTDOWN], ['emoji.js', EMOJI]] as const) {
    for (const literal of literals(source)) {
      t.notMatch(literal, /\b(seconds?|minutes?|moment|try again|of)\b/, `${name}: ${literal}`);
    }
  }
});

/** A countdown span as the script sees it (only what it uses). */
function span(seconds: number, text: string, words?: string) {
  return {
    textContent: text,
    dataset: words === undefined ? {} : { countdownWords: words },
    getAttribute: (name: string) => (name === 'data-countdown' ? String(seconds) : null),
  };
}

/** Runs countdown.js over `spans` on a page in `lang`, and its first tick, a second later. */
function runCountdown(spans: ReturnType<typeof span>[], lang: string): void {
  const timers: (() => void)[] = [];
  let now = 1_000_000;
  const document = {
    documentElement: { lang },
    querySelectorAll: (selector: string) => (selector === '[data-countdown]' ? spans : []),
  };
  runInNewContext(COUNTDOWN, { document, Intl, JSON, Math, Number, Date: { now: () => now }, setTimeout: (f: () => void) => { timers.push(f); } });
  now += 1000;
  timers.shift()?.();
}

t.test('countdown.js counts in the page\'s words, and leaves a span without words as the page sent it', async (t) => {
  const words = JSON.stringify({ seconds: { one: '# segundo', many: '# de segundos', other: '# segundos' }, minutes: { other: '# minutos' }, now: 'ya' });
  const counted = span(5, '5 segundos', words);
  const bare = span(5, '٥ ثوانٍ');
  runCountdown([counted, bare], 'es');
  t.equal(counted.textContent, '4 segundos', 'counted down, in its words');
  t.equal(bare.textContent, '٥ ثوانٍ', 'no words given: not rewritten (in English or any other)');
});
