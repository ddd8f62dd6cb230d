import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { importCircles, importContext, importGraph, productFiles } from '../helpers/import-graph.js';
import { projectRoot } from '../../src/package-files.js';
import { LIBRARY_COUPLED_MODULES } from '../../src/provider/internals.js';

/**
 * The house rules of docs/architecture.md, held against the code's own imports: no import circles, imports
 * run down the layers (an upward one only with a comment saying why), one module reads the environment,
 * library internals in the places listed, commands in src/cli/, unit tests that mirror the code.
 */

/**
 * The layers, lowest first (docs/architecture.md → Layers). A file belongs to the longest prefix that names
 * it. A file may import its own layer and the layers below; within a layer, circles are still refused.
 */
const LAYERS: [name: string, prefixes: string[]][] = [
  ['foundation', ['src/clock.ts', 'src/errors.ts', 'src/routes.ts', 'src/package-files.ts', 'src/logging.ts', 'src/formats/']],
  ['process', ['src/process/']],
  ['configuration', ['src/config/']],
  ['store', ['adapters/']],
  ['http', ['src/http/']],
  ['services', ['src/keys/', 'src/clients/', 'src/accounts/', 'src/badges/', 'src/cards/', 'src/roster/', 'src/audit/']],
  ['metrics', ['src/metrics/']],
  ['web', ['src/web/']],
  ['provider', ['src/provider/']],
  ['areas', ['interactions/', 'src/api/', 'src/dashboard/', 'src/developer/', 'src/school/', 'src/demo/']],
  ['guide', ['src/docs/']],
  ['composition', ['src/startup/', 'src/app.ts']],
  ['processes', ['src/cluster/', 'src/main.ts']],
  ['command line', ['src/cli/', 'src/cli.ts', 'src/check-node.mjs', 'src/build-state.mjs']],
];

function layerOf(file: string): { index: number; name: string; prefix: string } {
  let best: { index: number; name: string; prefix: string } | undefined;
  LAYERS.forEach(([name, prefixes], index) => {
    for (const prefix of prefixes) {
      if ((file === prefix || (prefix.endsWith('/') && file.startsWith(prefix))) && (!best || prefix.length > best.prefix.length)) {
        best = { index, name, prefix };
      }
    }
  });
  if (!best) throw new Error(`${file}: in no layer of test/unit/architecture.test.ts (add it to LAYERS and docs/architecture.md)`);
  return best;
}

/** The areas (route groups a person or program reaches) do not import each other: what two share lives below them. */
const AREAS = new Set(LAYERS.find(([name]) => name === 'areas')![1]);

/** The most upward imports the house allows, each with a comment (`upward:`) on or above its line saying why. */
const MOST_UPWARD = 10;

const graph = importGraph();

t.test('every product file is in a layer', async (t) => {
  const unplaced = graph.files.filter((f) => { try { layerOf(f); return false; } catch { return true; } });
  t.same(unplaced, [], 'files in no layer');
});

t.test('no import circles in product code', async (t) => {
  const circles = importCircles(graph);
  t.same(circles, [], `${circles.length} circle(s): ${circles.map((c) => c.join(' ⇄ ')).join(' | ')}`);
});

t.test('imports run down the layers; an upward one says why', async (t) => {
  const upward = graph.edges.filter((e) => layerOf(e.to).index > layerOf(e.from).index);
  const unexplained = upward.filter((e) => !/\bupward:/.test(importContext(e)));
  t.same(unexplained.map((e) => `${e.from}:${e.line} (${layerOf(e.from).name}) → ${e.to} (${layerOf(e.to).name})`), [],
    'upward imports without an `upward:` comment saying why');
  t.ok(upward.length <= MOST_UPWARD, `${upward.length} upward imports (at most ${MOST_UPWARD})`);
});

t.test('the areas do not import each other', async (t) => {
  const areaOf = (f: string) => [...AREAS].find((p) => f.startsWith(p));
  const across = graph.edges.filter((e) => areaOf(e.from) && areaOf(e.to) && areaOf(e.from) !== areaOf(e.to));
  t.same(across.map((e) => `${e.from}:${e.line} → ${e.to}`), [], 'imports from one area into another');
});

t.test('only src/config/ reads process.env (and the command\'s bootstrap, src/cli.ts)', async (t) => {
  const readers: string[] = [];
  for (const file of productFiles().filter((f) => !f.startsWith('src/config/') && f !== 'src/cli.ts')) {
    const source = ts.createSourceFile(file, readFileSync(join(projectRoot, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && node.expression.getText(source) === 'process') {
        readers.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  t.same(readers, [], 'process.env read outside src/config/');
});

t.test('library internals: only the modules src/provider/internals.ts lists say they touch them', async (t) => {
  const MARK = /Library coupling: listed in src\/provider\/internals\.ts/;
  const marked = productFiles().filter((f) => MARK.test(readFileSync(join(projectRoot, f), 'utf8')));
  t.same(marked.sort(), [...LIBRARY_COUPLED_MODULES].sort(), 'marked modules = the list in internals.ts');
  for (const f of LIBRARY_COUPLED_MODULES) t.ok(existsSync(join(projectRoot, f)), `${f} exists`);
});

t.test('one error path per area: only the shared HTML and JSON handlers set an error handler', async (t) => {
  const setters = productFiles().filter((f) => /\.setErrorHandler\(/.test(readFileSync(join(projectRoot, f), 'utf8')));
  t.same(setters.sort(), ['src/http/json-errors.ts', 'src/web/page-errors.ts'], 'modules that call setErrorHandler');
  const byPrefix = productFiles().filter((f) => /\bisPage\b|isDeveloperPage/.test(readFileSync(join(projectRoot, f), 'utf8')));
  t.same(byPrefix, [], 'no choice of HTML or JSON by URL prefix');
});

t.test('comments cite the rule or the docs, never an issue number (it goes stale)', async (t) => {
  const citing = productFiles().filter((f) => /\bissue \d+\b/i.test(readFileSync(join(projectRoot, f), 'utf8')));
  t.same(citing, [], 'product files citing an issue number');
});

t.test('the command line is one layer: every command in src/cli/, one suffix', async (t) => {
  const commands = productFiles().filter((f) => /-commands?\.ts$/.test(f));
  t.same(commands.filter((f) => !f.startsWith('src/cli/')), [], 'command modules outside src/cli/');
  t.same(commands.filter((f) => f.endsWith('-commands.ts')), [], 'command modules named -commands (the suffix is -command)');
});

t.test('test/unit mirrors the code: each folder is a folder of src/, adapters/ or interactions/', async (t) => {
  const unit = join(projectRoot, 'test', 'unit');
  const strays: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(unit, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (!entry.isDirectory()) continue;
      const mirrors = [`src/${path}`, path].some((p) => existsSync(join(projectRoot, p)) && !p.startsWith('test'));
      if (!mirrors && path !== 'helpers') strays.push(`test/unit/${path}/`);
      walk(path);
    }
  };
  walk('');
  // A loose test is named after a file at the top of src/, alone or with a topic: logging-lines.test.ts.
  const tops = readdirSync(join(projectRoot, 'src')).filter((f) => /\.(ts|mjs)$/.test(f)).map((f) => f.replace(/\.(ts|mjs)$/, ''));
  const loose = readdirSync(unit).filter((f) => f.endsWith('.test.ts') && f !== 'architecture.test.ts');
  const unmatched = loose.filter((f) => !tops.some((top) => f === `${top}.test.ts` || f.startsWith(`${top}-`)));
  t.same(strays, [], 'test folders that mirror no folder of the code');
  t.same(unmatched, [], 'loose unit tests named after no file at the top of src/');
});
