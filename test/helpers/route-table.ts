import type { FastifyInstance } from 'fastify';

/** Fastify's route table, from printRoutes (one node per line, four characters of indent per level). */
export function routeTable(app: FastifyInstance): { path: string; methods: string[] }[] {
  const routes: { path: string; methods: string[] }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    stack.length = m[1]!.length / 4;
    stack.push(m[2]!);
    if (m[3]) routes.push({ path: stack.join(''), methods: m[3].split(', ') });
  }
  return routes;
}
