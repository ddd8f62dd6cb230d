import { createServer, type AddressInfo, type Server } from 'node:net';

const listen = async (): Promise<Server> => {
  const server = createServer();
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  return server;
};
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * `count` distinct ports free on loopback right now (the OS picks them); every server the bench starts
 * listens on 127.0.0.1. They are held open together until all are picked: a port freed and picked again
 * one at a time can come back twice (it did: Lanyard's port and its metrics port were the same).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i += 1) servers.push(await listen());
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map(close));
  }
}

/** A port free on loopback right now. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}
