import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { buildNeeded } from '../../bench/build.js';
import { projectRoot } from '../../src/paths.js';
import { freePort } from '../helpers/ports.js';
import { until } from '../helpers/workers.js';

/**
 * The container image's runtime stage holds everything `lanyard serve` reads (README → Docker). There is no
 * Docker engine to build the image with here, so this lays out what the Dockerfile's final stage would hold
 * (its `COPY --from=build` lines, with production dependencies only, as the build stage's prune leaves them),
 * starts its `CMD` there with its `ENV` and the settings its header's `docker run` passes, and checks that the
 * server is ready, that its `HEALTHCHECK` passes, and that every page's assets and the documentation load.
 * A file the server reads at startup that the stage does not copy stops the server, and this test with it.
 */

interface RuntimeStage {
  env: Record<string, string>;
  workdir: string;
  copies: { from: string; to: string }[];
  healthcheck: string[];
  cmd: string[];
}

/** The Dockerfile's last stage, read the simple way its lines are written (one instruction a line, `\` continues). */
function runtimeStage(dockerfile: string): RuntimeStage {
  const lines = dockerfile.replace(/\\\n\s*/g, ' ').split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
  const stage = lines.slice(lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true));
  const env: Record<string, string> = {};
  const copies: RuntimeStage['copies'] = [];
  let workdir = '/';
  let healthcheck: string[] = [];
  let cmd: string[] = [];
  for (const line of stage) {
    const [word, ...rest] = line.trim().split(/\s+/);
    const args = rest.join(' ');
    if (word === 'ENV') for (const m of args.matchAll(/(\w+)=(\S+)/g)) env[m[1]!] = m[2]!;
    if (word === 'WORKDIR') workdir = args;
    if (word === 'COPY') {
      const m = /^--from=build (\S+) (\S+)$/.exec(args);
      if (!m) throw new Error(`a COPY the test does not know how to lay out: ${line}`);
      copies.push({ from: m[1]!, to: m[2]! });
    }
    if (word === 'HEALTHCHECK') healthcheck = JSON.parse(args.slice(args.indexOf('CMD ') + 4)) as string[];
    if (word === 'CMD') cmd = JSON.parse(args) as string[];
  }
  return { env, workdir, copies, healthcheck, cmd };
}

t.test("the image's runtime stage has everything `lanyard serve` reads", async (t) => {
  const stage = runtimeStage(readFileSync(join(projectRoot, 'Dockerfile'), 'utf8'));
  t.equal(stage.workdir, '/app', 'the build stage and the runtime stage both work in /app');
  t.same(stage.cmd.slice(0, 2), ['node', 'dist/src/cli.js'], 'CMD runs the built command');
  t.ok(stage.healthcheck.length > 0, 'there is a HEALTHCHECK');

  if (buildNeeded()) execFileSync('npm', ['run', '-s', 'build'], { cwd: projectRoot, stdio: 'inherit' });
  const root = mkdtempSync(join(tmpdir(), 'lanyard-image-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const app = join(root, 'app');
  mkdirSync(app);
  for (const { from, to } of stage.copies) {
    const path = from.replace(/^\/app\//, '');
    if (path === 'node_modules') {
      // The build stage's `npm ci --ignore-scripts` then `npm prune --omit=dev`: production dependencies only.
      cpSync(join(projectRoot, 'package-lock.json'), join(app, 'package-lock.json'));
      cpSync(join(projectRoot, 'package.json'), join(app, 'package.json'));
      execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, stdio: 'ignore' });
      rmSync(join(app, 'package-lock.json'));
    } else {
      cpSync(join(projectRoot, path), join(app, to), { recursive: true });
    }
  }
  const data = join(app, 'data');
  mkdirSync(data, { recursive: true });
  const config = join(root, 'config.json');
  writeFileSync(config, JSON.stringify({
    clients: [{ client_id: 'app', name: 'App', secret_hashes: ['sha256:f8yx58a2BsWFJYUcwb_hve7SJRoH_vwOJp4TgtPJdAY'], redirect_uris: ['https://app.example.org/cb'] }],
  }));

  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '', HOME: root,
    ...stage.env,
    // The image's own settings, but on loopback, a free port, and the data volume where it is laid out.
    HOST: '127.0.0.1', PORT: String(port), LANYARD_STORE: stage.env.LANYARD_STORE!.replace('/app/', `${app}/`),
    // What the Dockerfile's header passes to `docker run`.
    LANYARD_CONFIG: config, LANYARD_ISSUER: 'https://id.example.org', LANYARD_COOKIE_KEYS: 'k'.repeat(48), LANYARD_TRUST_PROXY: 'true',
    LANYARD_LOG_FORMAT: 'json',
  };
  t.equal(env.NODE_ENV, 'production', 'the image runs in production');
  t.not(env.LANYARD_STORE, stage.env.LANYARD_STORE, 'the store is in the laid-out data volume');

  const [command, ...args] = stage.cmd;
  const child = spawn(command === 'node' ? process.execPath : command!, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

  const base = `http://127.0.0.1:${port}`;
  const [hcCommand, ...hcArgs] = stage.healthcheck;
  const health = spawnSync(hcCommand === 'node' ? process.execPath : hcCommand!, hcArgs, { cwd: app, env, timeout: 10_000 });
  t.equal(health.status, 0, 'the HEALTHCHECK passes');

  const discovery = await fetch(`${base}/.well-known/openid-configuration`);
  t.equal(discovery.status, 200, 'discovery answers');
  for (const asset of ['lanyard.css', 'dashboard.css', 'countdown.js', 'copy.js', 'emoji.js', 'badge.js', 'jsqr.js']) {
    const res = await fetch(`${base}/assets/${asset}`);
    t.equal(res.status, 200, `/assets/${asset}`);
    t.ok((await res.arrayBuffer()).byteLength > 100, `/assets/${asset} has content`);
  }
  const docs = await fetch(`${base}/docs`);
  t.equal(docs.status, 200, 'the documentation page');
  t.match(await docs.text(), /\/assets\/lanyard\.css/, 'which links the shared style sheet');
});
