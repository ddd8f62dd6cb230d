import { spawn, spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import t, { type Test } from 'tap';
import { nodeVersionProblem } from '../../src/check-node.mjs';
import { projectRoot } from '../../src/package-files.js';
import { compileCacheEnv } from '../helpers/child-env.js';

/**
 * `npm start`, `npm test` and the `lanyard` command stop on an old Node with one line, before a native
 * module loads (on Node 20, argon2 would otherwise end the process with a segmentation fault). With an old
 * node on PATH (Debian's /usr/bin/node is 20) the real thing is run; in any case the same entry points run
 * on this Node made to report 20.0.0 (test/fixtures/pretend-node-version.mjs), which also says whether a
 * native module was loaded.
 */

const PRETEND = join(projectRoot, 'test/fixtures/pretend-node-version.mjs');
const MESSAGE = /^lanyard: Node\.js 22\.12 or newer is required \(Node 24 LTS recommended\), this is Node\.js ([\d.]+); how to get it: README\.md, section "Node\.js"$/m;

interface Run { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/**
 * Runs a command in its own process group, killed whole after 90 s: should the check ever let `npm test`
 * through, nothing it started outlives the test.
 */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: projectRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...compileCacheEnv(), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += String(d); });
    child.stderr.on('data', (d) => { stderr += String(d); });
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 90_000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** Stopped by the check: status 1 (no signal, no crash), the one line, and nothing else of Lanyard's. */
function stopped(t: Test, r: Run, version: string, what: string) {
  t.equal(r.signal, null, `${what}: not killed by a signal (${r.signal ?? 'none'})`);
  t.not(r.status, 0, `${what}: exits non-zero`);
  const match = MESSAGE.exec(r.stderr) ?? MESSAGE.exec(r.stdout);
  t.ok(match, `${what}: the one-line message\n${r.stdout}${r.stderr}`);
  t.equal(match?.[1], version, `${what}: names the Node it ran on`);
  t.notMatch(r.stdout + r.stderr, /Segmentation fault|> lanyard@\S+ build|error TS|Lanyard is ready/, `${what}: nothing built or started`);
}

/** Every node on PATH older than Lanyard needs, with its version. */
function oldNodesOnPath(): { path: string; version: string }[] {
  const seen = new Set<string>();
  const found: { path: string; version: string }[] = [];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const r = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const version = r.stdout?.trim();
    if (r.status === 0 && version && nodeVersionProblem(version)) found.push({ path: candidate, version });
  }
  return found;
}

t.test('on this Node made to look like Node 20: every entry point stops before a native module loads', async (t) => {
  const pretend = { NODE_OPTIONS: `--import=${PRETEND}` };
  const check = await run(process.execPath, [join(projectRoot, 'src/check-node.mjs')], pretend);
  stopped(t, check, '20.0.0', 'node src/check-node.mjs');

  const cli = await run(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli.ts'), 'serve'], pretend);
  stopped(t, cli, '20.0.0', 'lanyard serve');
  t.match(cli.stderr, '[pretend-node-version] native modules loaded: none', 'lanyard: neither argon2 nor better-sqlite3 loaded');

  // The detector works: on a Node that is new enough the same command loads them.
  const control = await run(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli.ts'), 'clients', 'secret'], { ...pretend, PRETEND_NODE_VERSION: '24.0.0' });
  t.equal(control.status, 0, control.stderr);
  t.match(control.stderr, /native modules loaded: .*argon2/, 'control: a new enough Node loads argon2');

  // `npm test -- --version`: were the check to let it through, tap would print its version, not run the suite.
  stopped(t, await run('npm', ['start'], pretend), '20.0.0', 'npm start');
  stopped(t, await run('npm', ['test', '--', '--version'], pretend), '20.0.0', 'npm test');
});

t.test('with a real old node on PATH: the check, the lanyard command, npm start and npm test', async (t) => {
  const old = oldNodesOnPath();
  if (!old.length) {
    // Not a skip: the test above ran the same entry points; this says why the real one could not.
    t.comment('no node older than 22.12 on PATH; the entry points were checked on this Node made to report 20.0.0');
    t.pass('no old node to run');
    return;
  }
  const { path: node, version } = old[0]!;
  t.comment(`running ${node} (Node ${version})`);
  stopped(t, await run(node, [join(projectRoot, 'src/check-node.mjs')]), version, `${node} src/check-node.mjs`);
  stopped(t, await run(node, ['--import', 'tsx', join(projectRoot, 'src/cli.ts'), 'serve']), version, `${node}: lanyard serve`);
  // npm runs the scripts with the first node on PATH.
  const path = `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`;
  stopped(t, await run('npm', ['start'], { PATH: path }), version, `npm start on Node ${version}`);
  stopped(t, await run('npm', ['test', '--', '--version'], { PATH: path }), version, `npm test on Node ${version}`);
});
