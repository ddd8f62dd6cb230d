import { execSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { projectRoot } from '../../src/package-files.js';
import { freePort } from '../helpers/ports.js';
import { until } from '../helpers/workers.js';
import { compileCacheEnv } from '../helpers/child-env.js';

/**
 * The container image builds and starts (docs/operations.md → Docker). There is no Docker engine here, so this follows
 * the Dockerfile instead: the build stage's `COPY` lines from the sources (every path .dockerignore leaves
 * out is at the top level, where the stage copies nothing from) and its `RUN` lines as written (npm ci, the build, the prune), then the runtime stage's `COPY --from=build` lines into
 * a directory of its own. There it starts the `CMD` with the stage's `ENV` and the settings the header's
 * `docker run` passes, and checks that the server is ready, that the `HEALTHCHECK` passes, and that every
 * page's assets and the documentation load. A source the build needs that the build stage does not copy,
 * or a file the server reads that the runtime stage does not, fails it. What it cannot check: the base
 * image, and the runtime stage's `RUN` (it makes the data volume's directory, made here by hand).
 */

interface Instruction { word: string; args: string }
interface Stage { name?: string; instructions: Instruction[] }

/** The Dockerfile's stages, read the simple way its lines are written (one instruction a line, `\` continues). */
function stagesOf(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of dockerfile.replace(/\\\n\s*/g, ' ').split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [word = '', ...rest] = trimmed.split(/\s+/);
    const args = rest.join(' ');
    if (word === 'FROM') stages.push({ name: /\bAS (\S+)$/i.exec(args)?.[1], instructions: [] });
    else stages.at(-1)?.instructions.push({ word, args });
  }
  return stages;
}

const argsOf = (stage: Stage, word: string): string[] => stage.instructions.filter((i) => i.word === word).map((i) => i.args);
const envOf = (stage: Stage): Record<string, string> =>
  Object.fromEntries(argsOf(stage, 'ENV').flatMap((a) => [...a.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])));

/** Runs the build stage in `dir` (its /app): COPY from the sources, RUN as written. */
function runBuildStage(t: Test, stage: Stage, dir: string): void {
  for (const { word, args } of stage.instructions) {
    if (word === 'WORKDIR') t.equal(args, '/app', 'the build stage works in /app');
    if (word === 'COPY') {
      const paths = args.split(/\s+/);
      const dest = paths.pop()!;
      const into = dest.endsWith('/') || paths.length > 1; // Docker: into that directory, by each source's name
      for (const from of paths) cpSync(join(projectRoot, from), join(dir, dest, into ? basename(from) : ''), { recursive: true });
    }
    if (word === 'RUN') {
      // npm's cache, filled by the `npm ci` before the tests, saves fetching every package again.
      execSync(args, { cwd: dir, stdio: 'ignore', shell: '/bin/sh', env: { ...process.env, npm_config_prefer_offline: 'true' } });
    }
  }
}

t.test('the image builds, and its runtime stage has everything `lanyard serve` reads', async (t) => {
  const stages = stagesOf(readFileSync(join(projectRoot, 'Dockerfile'), 'utf8'));
  const build = stages.find((s) => s.name === 'build');
  const runtime = stages.at(-1)!;
  t.ok(build, 'a stage named build');
  t.not(runtime, build, 'and a runtime stage after it');
  const [cmd] = argsOf(runtime, 'CMD').map((a) => JSON.parse(a) as string[]);
  const [healthcheck] = argsOf(runtime, 'HEALTHCHECK').map((a) => JSON.parse(a.slice(a.indexOf('CMD ') + 4)) as string[]);
  t.same(cmd?.slice(0, 2), ['node', 'dist/src/cli.js'], 'CMD runs the built command');
  t.ok(healthcheck, 'there is a HEALTHCHECK');
  t.same(argsOf(runtime, 'WORKDIR'), ['/app'], 'the runtime stage works in /app too');
  t.match(argsOf(runtime, 'RUN').join('\n'), /^mkdir -p \/app\/data\b/, "its one RUN makes the data volume's directory");

  const root = mkdtempSync(join(tmpdir(), 'lanyard-image-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const buildDir = join(root, 'build');
  const app = join(root, 'app');
  mkdirSync(buildDir);
  mkdirSync(app);
  runBuildStage(t, build!, buildDir);
  t.ok(existsSync(join(buildDir, 'dist/src/cli.js')), 'the build stage built the command');
  t.notOk(existsSync(join(buildDir, 'node_modules/typescript')), 'and pruned the development dependencies');

  for (const args of argsOf(runtime, 'COPY')) {
    const m = /^--from=build \/app\/(\S+) (\S+)$/.exec(args);
    t.ok(m, `COPY ${args}: from the build stage's /app`);
    if (!m) continue;
    // node_modules is linked rather than copied (a few hundred MB); Node loads packages by their real path,
    // which reads nothing outside them. Lanyard's own files are copied: they find the project root by
    // their own path, and must find it here.
    if (m[1] === 'node_modules') symlinkSync(join(buildDir, m[1]), join(app, m[2]!));
    else cpSync(join(buildDir, m[1]!), join(app, m[2]!), { recursive: true });
  }
  mkdirSync(join(app, 'data'));
  const config = join(root, 'config.json');
  writeFileSync(config, JSON.stringify({
    clients: [{ client_id: 'app', name: 'App', secret_hashes: ['sha256:f8yx58a2BsWFJYUcwb_hve7SJRoH_vwOJp4TgtPJdAY'], redirect_uris: ['https://app.example.org/cb'] }],
  }));

  const stageEnv = envOf(runtime);
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '', HOME: root, ...compileCacheEnv(),
    ...stageEnv,
    // The image's own settings, but on loopback, a free port, and the data volume where it is laid out.
    HOST: '127.0.0.1', PORT: String(port), LANYARD_STORE: (stageEnv.LANYARD_STORE ?? '').replace('/app/', `${app}/`),
    // What the Dockerfile's header passes to `docker run`.
    LANYARD_CONFIG: config, LANYARD_ISSUER: 'https://id.example.org', LANYARD_COOKIE_KEYS: 'k'.repeat(48), LANYARD_TRUST_PROXY: 'true',
    LANYARD_LOG_FORMAT: 'json',
  };
  t.equal(env.NODE_ENV, 'production', 'the image runs in production');
  t.match(env.LANYARD_STORE, `sqlite:${app}/data/`, 'on a SQLite file in the data volume');

  const node = (argv: string[]) => [argv[0] === 'node' ? process.execPath : argv[0]!, argv.slice(1)] as const;
  const child = spawn(...node(cmd!), { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += String(d); });
  child.stderr.on('data', (d) => { out += String(d); });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000, undefined, { ref: false })]);
    }
  });
  await until(() => /"event":"ready"/.test(out) || child.exitCode !== null, 'ready', 60_000).catch(() => undefined);
  t.match(out, /"event":"ready"/, 'the server is ready', { output: out.slice(-3000) });
  t.equal(child.exitCode, null, 'and still running');

  const health = spawnSync(...node(healthcheck!), { cwd: app, env, timeout: 10_000 });
  t.equal(health.status, 0, 'the HEALTHCHECK passes');

  const base = `http://127.0.0.1:${port}`;
  t.equal((await fetch(`${base}/.well-known/openid-configuration`)).status, 200, 'discovery answers');
  for (const asset of ['lanyard.css', 'dashboard.css', 'emoji-keyboard.css', 'class-tiles.css', 'countdown.js', 'copy.js', 'strip.js', 'emoji.js', 'badge.js', 'jsqr.js']) {
    const res = await fetch(`${base}/assets/${asset}`);
    t.equal(res.status, 200, `/assets/${asset}`);
    t.ok((await res.arrayBuffer()).byteLength > 100, `/assets/${asset} has content`);
  }
  const docs = await fetch(`${base}/docs`, { headers: { 'x-forwarded-host': 'id.example.org' } }); // as the proxy names it
  t.equal(docs.status, 200, 'the documentation page');
  t.match(await docs.text(), /\/assets\/lanyard\.css/, 'which links the shared style sheet');
});
