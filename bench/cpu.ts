import { readdirSync, readFileSync } from 'node:fs';

/**
 * How busy the machine was with work that is not the bench's: the load generator shares the machine with
 * the servers, and anything else running (a test suite, a build) lowers every figure. Linux only (/proc);
 * elsewhere nothing is reported.
 */
interface Snapshot { total: number; busy: number; ours: number }

function machineJiffies(): { total: number; busy: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0); // user … steal (guest is already in user)
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
    return { total, busy: total - idle };
  } catch {
    return undefined;
  }
}

/**
 * CPU time (jiffies, the unit of /proc/stat too) of every process in the given process groups, and of the
 * bench itself unless `bench` is false; undefined without /proc (off Linux).
 */
function ourJiffies(groups: Set<number>, bench = true): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  let sum = 0;
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the state on (comm may hold spaces)
      const pgid = Number(f[2]);
      if ((bench && Number(name) === process.pid) || groups.has(pgid)) sum += Number(f[11]) + Number(f[12]); // utime + stime
    } catch { /* exited meanwhile */ }
  }
  return sum;
}

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second. */
const MS_PER_JIFFY = 10;

/** The CPU time (ms, all threads) of a process group while `run` ran; undefined off Linux or without a group. */
export const groupCpuMs = <T>(group: number | undefined, run: () => Promise<T>): Promise<[T, number | undefined]> =>
  groupsCpuMs(group === undefined ? undefined : new Set([group]), run);

/** The CPU time (ms, all threads) of every process in these process groups while `run` ran; undefined off Linux. */
export async function groupsCpuMs<T>(groups: Set<number> | undefined, run: () => Promise<T>): Promise<[T, number | undefined]> {
  const jiffies = () => (groups === undefined ? undefined : ourJiffies(groups, false));
  const before = jiffies();
  const result = await run();
  const after = jiffies();
  return [result, before === undefined || after === undefined ? undefined : (after - before) * MS_PER_JIFFY];
}

/**
 * Waits, at most `maxMs`, until the given process groups have been quiet for `windowMs` (at most one jiffy
 * of CPU, 10 ms, in that window): a server that has just been measured still finishes what the load left
 * (V8's compilations and garbage collection, SQLite's checkpoint), which would otherwise fall in the next
 * server's phase. Returns the ms waited; at once off Linux.
 */
export async function waitQuiet(groups: Set<number>, windowMs = 200, maxMs = 3_000): Promise<number> {
  const start = Date.now();
  if (groups.size === 0) return 0;
  for (;;) {
    const [, ms] = await groupsCpuMs(groups, () => new Promise((r) => setTimeout(r, windowMs)));
    if (ms === undefined || ms <= MS_PER_JIFFY || Date.now() - start >= maxMs) return Date.now() - start;
  }
}

/** This process's CPU time (ms, every thread) since `before`, or since it started. */
export const ownCpuMs = (before?: NodeJS.CpuUsage): number => {
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
};

/** CPU ms per operation, rounded to the microsecond: how every CPU figure of the bench is kept. */
export const msPerOp = (totalMs: number, ops: number): number => Math.round((totalMs / ops) * 1000) / 1000;

/**
 * The CPU time (all threads) the server under test (`group`: its process group, workers included) spent
 * while `measure` ran, per successful operation, in ms; and the load generator's own (this process, which
 * shares the machine's cores with the server). A rate on a shared or virtual machine moves with whatever
 * else runs; the CPU one operation costs the server moves much less, so it says better what a change did.
 * The server's is undefined off Linux, without a group, or without a successful operation.
 */
export async function withServerCpu<F extends { ok: number; cpuMsPerOp?: number; generatorCpuMsPerOp?: number }>(group: number | undefined, measure: () => Promise<F>): Promise<F> {
  // The generator's window inside the server's: not counting the two scans of /proc that bound the server's.
  const [[figure, generatorMs], spentMs] = await groupCpuMs(group, async () => {
    const before = process.cpuUsage();
    const f = await measure();
    return [f, ownCpuMs(before)] as const;
  });
  if (figure.ok <= 0) return figure;
  return {
    ...figure,
    generatorCpuMsPerOp: msPerOp(generatorMs, figure.ok),
    ...(spentMs !== undefined && spentMs >= 0 ? { cpuMsPerOp: msPerOp(spentMs, figure.ok) } : {}),
  };
}

export function cpuSnapshot(groups: Set<number>): Snapshot | undefined {
  const m = machineJiffies();
  const ours = ourJiffies(groups);
  return m && ours !== undefined ? { ...m, ours } : undefined;
}

/**
 * Between two snapshots: the share of the machine's CPU time (all cores) used by other processes, in %.
 * Processes of ours that ended between the snapshots are not seen by the second: `endedMs` is the CPU they
 * reported themselves (the argon2 measurements around the sign-ins).
 */
export function othersPercent(a: Snapshot | undefined, b: Snapshot | undefined, endedMs = 0): number | undefined {
  if (!a || !b || b.total <= a.total) return undefined;
  const others = (b.busy - a.busy) - (b.ours - a.ours) - endedMs / MS_PER_JIFFY;
  return Math.max(0, Math.round((others / (b.total - a.total)) * 1000) / 10);
}

/** The machine's busy share over `ms` before the run starts, in % of all cores. */
export async function busyPercent(ms: number): Promise<number | undefined> {
  const a = machineJiffies();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineJiffies();
  if (!a || !b || b.total <= a.total) return undefined;
  return Math.round(((b.busy - a.busy) / (b.total - a.total)) * 1000) / 10;
}
