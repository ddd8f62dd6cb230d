import t from 'tap';
import { translator } from '../../../src/web/i18n/translator.js';
import { busyText, countdown, waitInWords, withWait } from '../../../src/web/waits.js';

t.test('a wait in words, with each language’s plurals', async (t) => {
  t.equal(waitInWords(1), '1 second');
  t.equal(waitInWords(20), '20 seconds');
  t.equal(waitInWords(60), 'about a minute');
  t.equal(waitInWords(3540), '59 minutes');
  t.equal(waitInWords(1, translator('es')), '1 segundo');
  t.equal(waitInWords(20, translator('fr')), '20 secondes');
  const ar = translator('ar');
  t.equal(waitInWords(1, ar), 'ثانية واحدة', 'Arabic: one');
  t.equal(waitInWords(2, ar), 'ثانيتين', 'two');
  t.match(waitInWords(5, ar), /ثوانٍ/, 'few');
  t.match(waitInWords(20, ar), /ثانية/, 'many');
  t.match(waitInWords(600, ar), /دقائق/, 'minutes: few');
});

t.test('the countdown carries its language’s forms for the page’s script', async (t) => {
  const html = countdown(30, translator('ar')).value;
  t.match(html, /data-countdown="30"/);
  const words = JSON.parse(/data-countdown-words="([^"]*)"/.exec(html)![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#39;/g, "'"));
  t.same(Object.keys(words.seconds).sort(), ['few', 'many', 'one', 'other', 'two', 'zero'], 'every Arabic plural form');
  t.equal(words.seconds.one, 'ثانية واحدة');
  t.match(words.seconds.few, /^# ثوانٍ$/, 'the number as #');
  t.equal(words.now, translator('ar').t('wait.now'));
  const en = JSON.parse(/data-countdown-words="([^"]*)"/.exec(countdown(5).value)![1]!.replace(/&quot;/g, '"'));
  t.same(en.seconds, { one: '# second', other: '# seconds' });
});

t.test('a message with a wait: escaped words around the countdown', async (t) => {
  t.match(withWait(translator('en'), 'attempt.tooMany', 30).value, /^Too many tries\. Please wait <span [^>]*data-countdown="30"[^>]*>30 seconds<\/span>, then try again — or ask your teacher\.$/);
  t.match(busyText(200, translator('fr')).value, /Attends <span[^>]*>4 minutes<\/span>, puis réessaie\.$/);
});
