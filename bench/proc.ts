import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Every process the bench starts runs in a process group of its own (detached), so that stopping it also
 * stops whatever it started in turn (Lanyard's worker processes), and the bench can check that nothing of
 * it is left. The registry below is what the Ctrl-C and error paths stop.
 */
export interface Group {
  name: string;
  /** The leader's pid, which is also the process group id. */
  pid: number;
  child: ChildProcess;
  /** Resolves when the leader has exited (its code, or the signal's name). */
  exited: Promise<number | string>;
  /** SIGTERM to the whole group, then SIGKILL after `graceMs` if anything of it is still there. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Group>();
/** Every group ever started in this run, for the JSON report and the smoke test's leftover check. */
export const startedGroups: { name: string; pid: number }[] = [];

/** Does any process of the group still exist? (Signal 0 checks without sending anything.) */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try { process.kill(-pgid, signal); } catch { /* already gone */ }
}

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return true;
    await sleep(50);
  }
  return !groupAlive(pgid);
}

export function spawnGroup(name: string, command: string, args: string[], o: { env?: NodeJS.ProcessEnv; stdio?: StdioOptions; cwd?: string } = {}): Group {
  const child = spawn(command, args, { detached: true, env: o.env ?? process.env, stdio: o.stdio ?? ['ignore', 'pipe', 'pipe'], cwd: o.cwd });
  if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  const pid = child.pid;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (err) => resolve(String(err)));
  });
  const group: Group = {
    name, pid, child, exited,
    async stop(graceMs = 10_000) {
      signalGroup(pid, 'SIGTERM');
      if (!(await waitGone(pid, graceMs))) {
        signalGroup(pid, 'SIGKILL');
        await waitGone(pid, 5_000);
      }
      running.delete(group);
    },
  };
  running.add(group);
  startedGroups.push({ name, pid });
  return group;
}

/**
 * Waits until a group's leader is ready: `check` (tried every `everyMs`) gives a value, such as the port it
 * printed. Gives up when the leader exits first or after `timeoutMs`, and then stops the group (SIGKILL
 * after `graceMs`); the error names `what`, and ends with `detail()` (the tail of its log, say).
 */
export async function waitReady<T>(group: Group, o: {
  what: string; check: () => T | undefined | Promise<T | undefined>; timeoutMs: number; everyMs: number; graceMs?: number; detail?: () => string;
}): Promise<T> {
  let exited: number | string | undefined;
  void group.exited.then((code) => { exited = code; });
  const deadline = Date.now() + o.timeoutMs;
  const detail = () => o.detail?.() ?? '';
  try {
    while (Date.now() < deadline) {
      if (exited !== undefined) throw new Error(`${o.what} exited (${exited}) before it was ready${detail()}`);
      const value = await o.check();
      if (value !== undefined) return value;
      await sleep(o.everyMs);
    }
    throw new Error(`${o.what} was not ready within ${o.timeoutMs / 1000} s${detail()}`);
  } catch (err) {
    await group.stop(o.graceMs);
    throw err;
  }
}

/**
 * Starts a bench server (`node --import tsx SCRIPT ARGS…`) in a group of its own and waits until it prints
 * `listening PORT`; its output is drained from then on, so that a full pipe never blocks it. Returns the
 * group and the port.
 */
export async function spawnListening(name: string, script: string, args: string[], o: { env?: NodeJS.ProcessEnv; cwd: string; timeoutMs: number }): Promise<{ group: Group; port: number }> {
  const group = spawnGroup(name, process.execPath, ['--import', 'tsx', script, ...args], { env: o.env ?? process.env, cwd: o.cwd });
  const stderr = keepTail(group.child.stderr);
  let printed: number | undefined;
  const lines = createInterface({ input: group.child.stdout! });
  lines.on('line', (line) => {
    const m = /^listening (\d+)$/.exec(line);
    if (m) printed = Number(m[1]);
  });
  const port = await waitReady(group, { what: name, check: () => printed, timeoutMs: o.timeoutMs, everyMs: 10, detail: () => `\n${stderr()}` });
  return { group, port };
}

/** The last `max` characters written to a stream (a child's stderr), for the error when that child fails. */
export function keepTail(stream: Readable | null | undefined, max = 4000): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => { text = (text + chunk.toString()).slice(-max); });
  return () => text;
}

/** Stops every group still running (the normal end, an error, Ctrl-C). */
export async function stopAllGroups(graceMs = 5_000): Promise<void> {
  await Promise.all([...running].map((g) => g.stop(graceMs).catch(() => {})));
}

/** Last resort when the bench process exits without having stopped them: nothing async is possible here. */
export function killAllGroupsNow(): void {
  for (const g of running) signalGroup(g.pid, 'SIGKILL');
  running.clear();
}

/** The groups that are still alive although they should not be (after stopAllGroups). */
export const leftovers = (): { name: string; pid: number }[] => startedGroups.filter((g) => groupAlive(g.pid));
