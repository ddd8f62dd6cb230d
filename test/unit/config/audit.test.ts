import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { auditSettings } from '../../../src/config/audit.js';
import { readConfigFile } from '../../../src/config/file.js';
import { developmentWarnings, productionFileProblems } from '../../../src/config/production.js';
import type { ConfigError } from '../../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'lanyard-audit-config-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const fileWith = (audit: unknown): string => {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ clients: [], audit }));
  return path;
};

const problems = (audit: unknown): string[] => {
  try {
    readConfigFile(fileWith(audit));
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

t.test('the audit trail: kept a year and written by default; a school may keep it longer or shorter', async (t) => {
  t.same(auditSettings(readConfigFile(fileWith(undefined))), { retentionDays: 365, enabled: true });
  t.same(auditSettings(readConfigFile(fileWith({ retention_days: 30 }))), { retentionDays: 30, enabled: true });
  t.same(auditSettings(readConfigFile(fileWith({ enabled: false }))), { retentionDays: 365, enabled: false });
  t.match(problems({ retention_days: 0 }), [/audit\/retention_days/], 'at least a day');
  t.match(problems({ retention_days: 1.5 }), [/audit\/retention_days/], 'whole days');
  t.match(problems({ keep: true }), [/audit/], 'nothing else');
});

t.test('turning the trail off is said loudly, and refused in production', async (t) => {
  const file = readConfigFile(fileWith({ enabled: false }));
  t.match(productionFileProblems(file, false), [/\/audit\/enabled/]);
  t.match(developmentWarnings({ file, configPath: 'x.json', host: '127.0.0.1', cookieKeys: ['k'.repeat(32)] }, false), [/audit\.enabled is false/]);
  t.same(productionFileProblems(readConfigFile(fileWith({ retention_days: 30 })), false), [], 'a retention alone is fine');
});
