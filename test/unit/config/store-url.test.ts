import t from 'tap';
import { redactUrl } from '../../../src/config/store-url.js';
import { parseRedisUrl } from '../../../src/config/store-url.js';
import { loadConfig } from '../../../src/config/config.js';
import { ConfigError } from '../../../src/errors.js';

/** LANYARD_STORE: which backend, where, and what a shared store requires (docs/storage.md → Choosing a store). */
t.test('redis URLs: single server, TLS, Sentinel, credentials and database', async (t) => {
  t.same(parseRedisUrl('redis://127.0.0.1:6380'), { host: '127.0.0.1', port: 6380, username: undefined, password: undefined, db: 0, tls: false });
  t.same(parseRedisUrl('redis://cache'), { host: 'cache', port: 6379, username: undefined, password: undefined, db: 0, tls: false }, 'default port');
  t.same(parseRedisUrl('rediss://lanyard:p%40ss@redis.example:6390/2'),
    { host: 'redis.example', port: 6390, username: 'lanyard', password: 'p@ss', db: 2, tls: true }, 'TLS, user, decoded password, db');
  t.same(parseRedisUrl('redis://:secret@[::1]:7000'), { host: '::1', port: 7000, username: undefined, password: 'secret', db: 0, tls: false }, 'password only, IPv6');
  t.same(parseRedisUrl('redis-sentinel://:pw@s1:26380,s2,10.0.0.3:26381/mymaster/1'), {
    sentinels: [{ host: 's1', port: 26380 }, { host: 's2', port: 26379 }, { host: '10.0.0.3', port: 26381 }],
    masterName: 'mymaster', username: undefined, password: 'pw', db: 1, tls: false,
  }, 'Sentinel: several sentinels, default port 26379, primary name, db');
  for (const bad of ['redis://', 'redis://host:0', 'redis://host:99999', 'redis://host/16', 'redis://host/x', 'redis-sentinel://s1:26379', 'redis://h/1/2', 'http://host']) {
    t.throws(() => parseRedisUrl(bad), { code: 'config_invalid' }, `refused: ${bad}`);
  }
  let message = '';
  try { parseRedisUrl('redis://u:hunter2@h:1/99'); } catch (err) { message = (err as Error).message; }
  t.match(message, /redis:\/\/u:\*\*\*@h:1\/99/, 'refused, naming the URL');
  t.notMatch(message, /hunter2/, 'a refusal never repeats the password');
});

t.test('redactUrl hides passwords for logs and messages', async (t) => {
  t.equal(redactUrl('redis://user:hunter2@host:6379/0'), 'redis://user:***@host:6379/0');
  t.equal(redactUrl('redis-sentinel://:pw@s1,s2/m'), 'redis-sentinel://:***@s1,s2/m');
  t.equal(redactUrl('sqlite:./data/lanyard.db'), 'sqlite:./data/lanyard.db');
  t.equal(redactUrl('redis://:Ab3/xYz+Secret9@host:6379'), 'redis://:***@host:6379', 'an unencoded / in the password');
  t.equal(redactUrl('redis://default:p@ss#w0rd@redis'), 'redis://default:***@redis', 'an unencoded @ in the password');
  for (const url of ['redis://:Ab3/xYz+Secret9@host:6379', 'redis://default:p@ss#w0rd@redis']) {
    let message = '';
    try { parseRedisUrl(url); } catch (err) { message = (err as Error).message; }
    t.match(message, /percent-encode/, `refused with advice: ${redactUrl(url)}`);
    t.notMatch(message, /Secret9|ss#w0rd|xYz/, 'no part of the password in the message');
  }
});

t.test('config: a Redis store needs LANYARD_KEY_ENCRYPTION_KEY; the prefix is checked; bad URLs are named', async (t) => {
  const kek = Buffer.alloc(32, 7).toString('base64');
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return err.problems;
    }
  };
  t.match(problems({ LANYARD_STORE: 'redis://127.0.0.1:6379' }).join('\n'), /LANYARD_KEY_ENCRYPTION_KEY: required with a store that is not a local file/);
  t.same(problems({ LANYARD_STORE: 'redis://127.0.0.1:6379', LANYARD_KEY_ENCRYPTION_KEY: kek }), [], 'accepted with the key');
  const config = loadConfig({ LANYARD_STORE: 'redis-sentinel://127.0.0.1:26379/lanyard', LANYARD_KEY_ENCRYPTION_KEY: kek, LANYARD_REDIS_PREFIX: 'school-a' });
  t.equal(config.redisPrefix, 'school-a');
  t.equal(loadConfig({}).storeUrl, 'sqlite:./data/lanyard.db', 'SQLite stays the default');
  t.equal(loadConfig({}).redisPrefix, 'lanyard', 'default prefix');
  t.same(problems({ LANYARD_STORE: 'sqlite:./x.db' }), [], 'a SQLite file needs no key: it is kept beside the database');
  t.match(problems({ LANYARD_STORE: 'redis://h', LANYARD_KEY_ENCRYPTION_KEY: kek, LANYARD_REDIS_PREFIX: 'a b' }).join('\n'), /LANYARD_REDIS_PREFIX: "a b"/);
  t.match(problems({ LANYARD_STORE: 'redis://h:70000', LANYARD_KEY_ENCRYPTION_KEY: kek }).join('\n'), /LANYARD_STORE "redis:\/\/h:70000": the address is not host:port/);
  t.match(problems({ LANYARD_STORE: 'sqlite:' }).join('\n'), /LANYARD_STORE: "sqlite:" needs a file path/);
  t.match(problems({ LANYARD_STORE: 'mongodb://h', LANYARD_KEY_ENCRYPTION_KEY: kek }).join('\n'), /LANYARD_STORE "mongodb:\/\/h": not a redis/);
});
