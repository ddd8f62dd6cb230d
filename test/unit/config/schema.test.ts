import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import t from 'tap';
import { RATE_LIMIT_DEFAULTS, ROSTER_DEFAULTS, ROSTER_TYPES_DEFAULT, THROTTLING_DEFAULTS } from '../../../src/config/defaults.js';
import { CONFIG_SCHEMA } from '../../../src/config/schema.js';
import { schemaPath } from '../../../src/package-files.js';

t.test('config/schema.json is src/config/schema.ts written out (`npm run schema` writes it)', async (t) => {
  t.same(JSON.parse(readFileSync(schemaPath, 'utf8')), JSON.parse(JSON.stringify(CONFIG_SCHEMA)), 'config/schema.json is stale: run `npm run schema`');
});

/** Every property of the schema, with its JSON path. */
function* properties(node: unknown, path = ''): Generator<[string, Record<string, unknown>]> {
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(o)) {
    if ((key === 'properties' || key === 'definitions') && value && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) {
        yield [`${path}/${name}`, sub as Record<string, unknown>];
        yield* properties(sub, `${path}/${name}`);
      }
    } else if (typeof value === 'object') yield* properties(value, `${path}/${key}`);
  }
}

t.test('defaults are keywords, not prose', async (t) => {
  const prose = [...properties(CONFIG_SCHEMA)].filter(([, p]) => typeof p.description === 'string' && /\bDefault \d|\bDefault (all|false|true|\[)/.test(p.description));
  t.same(prose.map(([path]) => path), [], 'descriptions that restate a default instead of a `default` keyword');
  const defaults = Object.fromEntries([...properties(CONFIG_SCHEMA)].filter(([, p]) => 'default' in p).map(([path, p]) => [path, p.default]));
  for (const [name, value] of Object.entries(THROTTLING_DEFAULTS)) t.equal(defaults[`/throttling/${name}`], value, `login_throttling.${name}`);
  for (const [name, value] of Object.entries(RATE_LIMIT_DEFAULTS)) t.equal(defaults[`/rate_limits/${name}`], value, `rate_limits.${name}`);
  t.same(defaults['/organisation/login_methods'], ['emoji', 'badge', 'password'], 'login_methods');
  t.equal(defaults['/developer_signup'], 'invite', 'developer_signup');
  for (const [name, value] of Object.entries(ROSTER_DEFAULTS)) t.equal(defaults[`/roster/${name}`], value, `roster.${name}`);
  t.same(defaults['/roster/types'], ROSTER_TYPES_DEFAULT, 'roster.types');
});

t.test('the schema compiles under ajv strict mode, and its defaults are valid values', async (t) => {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, useDefaults: true });
  addFormats.default(ajv);
  const validate = ajv.compile(CONFIG_SCHEMA);
  const file = { clients: [], login_throttling: {}, rate_limits: {}, roster: {}, organisations: [{ slug: 'a-school', name: 'A School' }] };
  t.ok(validate(file), JSON.stringify(validate.errors));
  t.same(file.login_throttling, THROTTLING_DEFAULTS, 'every throttling default is a valid value');
  t.same(file.rate_limits, RATE_LIMIT_DEFAULTS, 'every rate-limit default is a valid value');
  t.same(file.roster, { ...ROSTER_DEFAULTS, types: ROSTER_TYPES_DEFAULT }, 'every roster default is a valid value');
});
