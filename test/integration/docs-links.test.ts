import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import t from 'tap';
import { projectRoot } from '../../src/package-files.js';

/**
 * The README is a front door (what Lanyard is, the two commands, the demo users, where to read on) and the rest
 * of the documentation lives in docs/, one file a topic; every relative link between them leads somewhere.
 */
const README = join(projectRoot, 'README.md');
const DOCS = join(projectRoot, 'docs');
const files = [README, ...readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => join(DOCS, f))];

/** GitHub's anchor of a heading: lower case, spaces to hyphens, punctuation dropped. */
const anchor = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
}

t.test('the README is a front door of at most ~300 lines', async (t) => {
  const lines = readFileSync(README, 'utf8').split('\n').length;
  t.ok(lines <= 300, `README.md: ${lines} lines`);
  for (const f of files.slice(1)) t.ok(readFileSync(README, 'utf8').includes(`docs/${f.slice(DOCS.length + 1)}`), `README links ${f.slice(projectRoot.length + 1)}`);
});

t.test('every relative link in README.md and docs/ names a file and a heading that exist', async (t) => {
  const broken: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [path, hash] = target!.split('#') as [string, string | undefined];
      const resolved = path ? join(dirname(file), path) : file;
      if (!existsSync(resolved)) broken.push(`${file.slice(projectRoot.length + 1)}: ${target} (no such file)`);
      else if (hash && resolved.endsWith('.md') && !anchorsOf(resolved).has(hash)) broken.push(`${file.slice(projectRoot.length + 1)}: ${target} (no such heading)`);
    }
  }
  t.same(broken, [], 'broken links');
});
