import type { Redis } from 'ioredis';

/** How the Redis server keeps its data across a restart, for the startup log and readiness. */
export interface RedisPersistence {
  /** Append-only file on. */
  aof: boolean;
  /** RDB snapshots configured (false as well when CONFIG is disabled and it cannot be told). */
  rdb: boolean;
  appendfsync?: string;
  summary: string;
}

const parseInfo = (text: string): Record<string, string> =>
  Object.fromEntries(text.split(/\r?\n/).filter((l) => l.includes(':')).map((l) => {
    const at = l.indexOf(':');
    return [l.slice(0, at), l.slice(at + 1).trim()];
  }));

/** A CONFIG GET value, or undefined where CONFIG is disabled or renamed (managed Redis). */
async function configValue(client: Redis, name: string): Promise<string | undefined> {
  try {
    const reply = (await client.config('GET', name)) as string[];
    return reply[1];
  } catch {
    return undefined;
  }
}

/** Reads INFO persistence, and CONFIG GET save / appendfsync where allowed. */
export async function redisPersistence(client: Redis): Promise<RedisPersistence> {
  const info = parseInfo(await client.info('persistence'));
  const aof = info.aof_enabled === '1';
  const save = await configValue(client, 'save');
  const appendfsync = aof ? await configValue(client, 'appendfsync') : undefined;
  const rdb = Boolean(save?.trim());
  const aofText = aof ? `AOF on${appendfsync ? ` (appendfsync ${appendfsync})` : ''}` : 'AOF off';
  let summary: string;
  if (save === undefined) summary = `${aofText}; RDB snapshots unknown (CONFIG is not available)`;
  else if (aof) summary = `${aofText}${rdb ? `, RDB snapshots (save ${save})` : ', no RDB snapshots'}`;
  else if (rdb) summary = `RDB snapshots only (save ${save}): a crash loses the writes since the last snapshot`;
  else summary = 'no persistence: a Redis restart loses every session, user and key';
  return { aof, rdb, ...(appendfsync ? { appendfsync } : {}), summary };
}
