import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { ConfigError } from '../../../src/errors.js';
import { readConfigFile } from '../../../src/config/file.js';
import { schoolDaySettings } from '../../../src/config/school-day.js';

const dir = mkdtempSync(join(tmpdir(), 'lanyard-school-day-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const fileWith = (schoolDay: unknown): string => {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ clients: [], school_day: schoolDay }));
  return path;
};

const problems = (schoolDay: unknown): string[] => {
  try {
    readConfigFile(fileWith(schoolDay));
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

t.test('the school day from the file, with its defaults', async (t) => {
  t.same(schoolDaySettings(readConfigFile(fileWith(undefined))), { endsMinutes: 990, timeZone: 'UTC' }, 'left out: 16:30 UTC');
  t.same(schoolDaySettings(readConfigFile(fileWith({ ends: '15:05', time_zone: 'Europe/Berlin' }))), { endsMinutes: 905, timeZone: 'Europe/Berlin' });
  t.same(schoolDaySettings(readConfigFile(fileWith({ time_zone: 'Asia/Kolkata' }))), { endsMinutes: 990, timeZone: 'Asia/Kolkata' });
  t.same(schoolDaySettings(readConfigFile(fileWith({ ends: '00:00' }))), { endsMinutes: 0, timeZone: 'UTC' });
});

t.test('a time that is not HH:MM, or an unknown time zone, is refused with its path', async (t) => {
  for (const ends of ['4:30', '16.30', '24:00', '16:60', '4pm', '']) {
    t.match(problems({ ends }), [/school_day\/ends: must match pattern/], `ends ${JSON.stringify(ends)}`);
  }
  t.match(problems({ time_zone: 'Europe/Londn' }), [/\/school_day\/time_zone: "Europe\/Londn" is not a time zone; give an IANA name/]);
  t.match(problems({ time_zone: '' }), [/\/school_day\/time_zone: must NOT have fewer than 1 characters/]);
  t.match(problems({ ends: '16:30', starts: '08:30' }), [/school_day: unknown property "starts"/]);
  t.same(problems({ ends: '23:59', time_zone: 'America/New_York' }), []);
});
