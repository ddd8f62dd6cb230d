import type Database from 'better-sqlite3';
import type { Settings } from '../store.js';

/** Named values in SQLite. */
export function sqliteSettings(db: Database.Database): Settings {
  const q = {
    get: db.prepare('SELECT value FROM settings WHERE name = ?'),
    insert: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
    put: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    delete: db.prepare('DELETE FROM settings WHERE name = ?'),
  };
  const get = (name: string) => (q.get.get(name) as { value: string } | undefined)?.value;
  const getOrCreate = db.transaction((name: string, value: string) => {
    q.insert.run(name, value);
    return get(name)!;
  });
  return {
    async getOrCreateSetting(name, create) { return get(name) ?? getOrCreate.immediate(name, create()); },
    async getSetting(name) { return get(name); },
    async putSetting(name, value) { q.put.run(name, value); },
    async deleteSetting(name) { q.delete.run(name); },
  };
}
