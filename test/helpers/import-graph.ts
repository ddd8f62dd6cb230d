import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../src/package-files.js';

/**
 * The product code's import graph, read from the source with TypeScript's own scanner (so an import inside
 * a template string or a comment is not one): every import, export-from and dynamic import() of a relative
 * path, type-only ones included (they tie files together as surely as any other).
 */

/** The folders that hold product code (tests, bench and tools are not product code). */
export const PRODUCT_FOLDERS = ['src', 'adapters', 'interactions'] as const;

export interface ImportEdge {
  from: string;
  to: string;
  /** 1-based line of the import in `from`. */
  line: number;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
}

const SOURCE = /\.(ts|mts|mjs)$/;

/** Every product source file, relative to the project root ('/'-separated); browser assets under public/ are not modules of the server. */
export function productFiles(root = projectRoot): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'public' && entry.name !== 'node_modules') walk(path);
      } else if (SOURCE.test(entry.name) && !/\.d\.m?ts$/.test(entry.name)) files.push(path);
    }
  };
  for (const folder of PRODUCT_FOLDERS) walk(folder);
  return files.sort();
}

/** What a relative specifier names: `./x.js` is the source `./x.ts` (NodeNext), `./x.mjs` stays. */
function resolveSpecifier(root: string, from: string, specifier: string): string {
  const target = relative(root, resolve(root, dirname(from), specifier)).split('\\').join('/');
  return target.replace(/\.js$/, '.ts');
}

export function importGraph(root = projectRoot): ImportGraph {
  const files = productFiles(root);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const text = readFileSync(join(root, from), 'utf8');
    const info = ts.preProcessFile(text, true, true);
    for (const imported of info.importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const line = text.slice(0, imported.pos).split('\n').length;
      edges.push({ from, to: resolveSpecifier(root, from, imported.fileName), line });
    }
  }
  return { files, edges };
}

/** The circles of a graph: its strongly connected components of more than one file, or a file that imports itself (Tarjan). */
export function importCircles(graph: ImportGraph): string[][] {
  const next = new Map<string, string[]>();
  for (const e of graph.edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) circles.push(component.sort());
    }
  };
  for (const f of graph.files) if (!index.has(f)) visit(f);
  return circles;
}

/** The source line of an edge and the line above it: where a comment saying why an import runs upward stands. */
export function importContext(edge: ImportEdge, root = projectRoot): string {
  const lines = readFileSync(join(root, edge.from), 'utf8').split('\n');
  return `${lines[edge.line - 2] ?? ''}\n${lines[edge.line - 1] ?? ''}`;
}
