import { type AddressInfo, createServer, type Server } from 'node:net';

const listen = async (): Promise<Server> => {
  const server = createServer();
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  return server;
};

/**
 * `count` distinct ports free on loopback right now, held together until all are picked: picked one at a
 * time, a port just freed can come back twice (the bench saw its main and metrics ports collide).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i += 1) servers.push(await listen());
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/** A port free on loopback right now. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}
