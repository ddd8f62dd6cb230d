import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (the folder with package.json), from source (tsx) or from dist/ alike. */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  return dir;
}

export const projectRoot = findRoot();
export const demoConfigPath = join(projectRoot, 'config', 'demo.json');
export const schemaPath = join(projectRoot, 'config', 'schema.json');
/** Assets every page shares (style sheet, small scripts). */
export const webPublicDir = join(projectRoot, 'src', 'web', 'public');
/** The sign-in screens' own scripts (emoji keyboard, badge scanner). */
export const interactionsPublicDir = join(projectRoot, 'interactions', 'public');
