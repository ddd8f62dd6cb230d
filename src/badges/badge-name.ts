import type { User } from '../../adapters/store.js';

/**
 * The name printed on a badge: given name, then family name — except names written in Chinese characters,
 * kana or Hangul, which are written family name first with no space between (王小明, not "小明 王").
 */
const EAST_ASIAN_NAME = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}・ー]+$/u;

export function badgeName(user: Pick<User, 'givenName' | 'familyName'>): string {
  const given = user.givenName.trim();
  const family = user.familyName.trim();
  return EAST_ASIAN_NAME.test(given) && EAST_ASIAN_NAME.test(family) ? `${family}${given}` : `${given} ${family}`;
}
