import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigFile } from '../../src/config/schema.js';
import { demoConfigPath } from '../../src/package-files.js';

export const demoConfig = (): ConfigFile => JSON.parse(readFileSync(demoConfigPath, 'utf8')) as ConfigFile;

/** Writes a config file (the demo, changed by `edit`) to a temporary directory; returns its path. */
export function writeConfig(edit: (config: ConfigFile) => void): string {
  const config = demoConfig();
  edit(config);
  const path = join(mkdtempSync(join(tmpdir(), 'lanyard-config-')), 'config.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}
