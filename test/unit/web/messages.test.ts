import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import t from 'tap';
import { LOCALES } from '../../../src/formats/locales.js';
import { translator } from '../../../src/web/i18n/translator.js';
import { CATALOGUE, type MessageKey } from '../../../src/web/messages/catalogue.js';

/**
 * The catalogue is complete and sound in every language (docs/languages.md → Adding a language): the same keys
 * as English, each an ICU message with English's arguments, plurals that say every form the language has.
 */

const ENGLISH = CATALOGUE.en;
const KEYS = Object.keys(ENGLISH) as MessageKey[];

interface Shape {
  /** Every argument's name, with whether it is counted (a plural's). */
  args: Map<string, 'plural' | 'text'>;
  /** Each plural's options (`one`, `other`, …). */
  plurals: { arg: string; options: string[] }[];
}

function shapeOf(elements: MessageFormatElement[], shape: Shape = { args: new Map(), plurals: [] }): Shape {
  for (const e of elements) {
    if (e.type === TYPE.argument || e.type === TYPE.number || e.type === TYPE.date || e.type === TYPE.time) {
      if (!shape.args.has(e.value)) shape.args.set(e.value, e.type === TYPE.number ? 'plural' : 'text');
    } else if (e.type === TYPE.plural || e.type === TYPE.select) {
      shape.args.set(e.value, e.type === TYPE.plural ? 'plural' : 'text');
      if (e.type === TYPE.plural) shape.plurals.push({ arg: e.value, options: Object.keys(e.options) });
      for (const option of Object.values(e.options)) shapeOf(option.value, shape);
    } else if (e.type === TYPE.tag) {
      shapeOf(e.children, shape);
    }
  }
  return shape;
}

const parsed = (message: string) => shapeOf(parse(message, { requiresOtherClause: true }));

t.test('every language has exactly the English keys: a missing or an extra key is named', async (t) => {
  for (const locale of LOCALES) {
    const keys = Object.keys(CATALOGUE[locale]);
    const missing = KEYS.filter((k) => !(k in CATALOGUE[locale]));
    const extra = keys.filter((k) => !(k in ENGLISH));
    t.same(missing, [], `${locale}: no key missing`);
    t.same(extra, [], `${locale}: no key English lacks`);
    for (const key of KEYS) {
      if (typeof CATALOGUE[locale][key] !== 'string' || !CATALOGUE[locale][key].trim()) t.fail(`${locale}: ${key} is empty`);
    }
  }
});

t.test('every message parses as ICU MessageFormat, with English’s arguments, and plurals that cover the language’s forms', async (t) => {
  for (const locale of LOCALES) {
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    for (const key of KEYS) {
      const message = CATALOGUE[locale][key];
      let shape: Shape;
      try {
        shape = parsed(message);
      } catch (err) {
        t.fail(`${locale}: ${key} does not parse: ${(err as Error).message}`);
        continue;
      }
      const english = parsed(ENGLISH[key]);
      t.same([...shape.args.entries()].sort(), [...english.args.entries()].sort(), `${locale}: ${key} has English's arguments`);
      for (const plural of shape.plurals) {
        const lacking = categories.filter((c) => !plural.options.includes(c));
        if (lacking.length) t.fail(`${locale}: ${key}: {${plural.arg}, plural} lacks ${lacking.join(', ')}`);
      }
      if (/(?<![’\w])'|'(?![\w’])/.test(message)) t.fail(`${locale}: ${key}: a plain ' quotes ICU syntax; write ’`);
    }
  }
});

t.test('every message formats with sample values in every language, plurals at every count', async (t) => {
  for (const locale of LOCALES) {
    const { t: say } = translator(locale);
    for (const key of KEYS) {
      const { args } = parsed(ENGLISH[key]);
      for (const count of [0, 1, 2, 3, 6, 11, 100, 1_000_000]) {
        const values = Object.fromEntries([...args].map(([name, kind]) => [name, kind === 'plural' ? count : `«${name}»`]));
        let text = '';
        t.doesNotThrow(() => { text = say(key, values); }, `${locale}: ${key} formats`);
        for (const [name, kind] of args) {
          if (kind === 'text' && !text.includes(`«${name}»`)) t.fail(`${locale}: ${key} leaves out {${name}}`);
        }
        if (!args.size) break;
      }
    }
  }
});

t.test('the checks can fail: a missing form, an argument renamed and a broken message are caught', async (t) => {
  t.throws(() => parse('{count, plural, one {#}', { requiresOtherClause: true }), 'unclosed');
  t.throws(() => parse('{count, plural, one {#}}', { requiresOtherClause: true }), 'no other clause');
  const shape = parsed('{count, plural, one {#} other {#}}');
  t.same(new Intl.PluralRules('ar').resolvedOptions().pluralCategories.filter((c) => !shape.plurals[0]!.options.includes(c)).sort(),
    ['few', 'many', 'two', 'zero'], 'Arabic needs zero, two, few and many besides');
  t.not([...parsed('Hello {name}').args.keys()].join(), [...parsed('Hello {nom}').args.keys()].join(), 'a renamed argument differs');
});
