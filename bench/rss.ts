import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Resident size of a process and every process below it (Lanyard's workers), in MiB: in all, and each. */
export async function treeRss(root: number): Promise<{ mib: number; processes: number; each: number[]; pids: number[] }> {
  // ps is on every Unix and cheap at a sample every few seconds; /proc would be Linux only.
  const { stdout } = await run('ps', ['-A', '-o', 'pid=,ppid=,rss=']);
  const rows = stdout.trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number) as [number, number, number]);
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of rows) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const rss = new Map(rows.map(([pid, , kib]) => [pid, kib]));
  let kib = 0;
  let processes = 0;
  const each: number[] = [];
  const pids: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    if (!rss.has(pid)) continue;
    kib += rss.get(pid)!;
    processes += 1;
    each.push(toMiB(rss.get(pid)!));
    pids.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return { mib: toMiB(kib), processes, each, pids };
}

const toMiB = (kib: number) => Math.round((kib / 1024) * 10) / 10;
