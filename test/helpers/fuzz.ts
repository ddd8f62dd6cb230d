/** Bounded, seeded fuzzing: the same inputs on every run, so a failure can be replayed. */

/** A small deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6D2B79F5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Up to 7 pieces, drawn from `pieces`, one after another. */
export function fuzzString(r: () => number, pieces: readonly string[]): string {
  const n = Math.floor(r() * 8);
  let s = '';
  for (let i = 0; i < n; i += 1) s += pieces[Math.floor(r() * pieces.length)];
  return s;
}

/** One of `choices`. */
export const pick = <T>(r: () => number, choices: readonly T[]): T => choices[Math.floor(r() * choices.length)]!;

/** A path segment: a lone surrogate cannot be percent-encoded, so it is sent as U+FFFD. */
export const segment = (s: string): string => encodeURIComponent(s.replace(/\p{Cs}/gu, '\uFFFD'));
