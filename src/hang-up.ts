/**
 * SIGHUP means one of two things. On a terminal it is the terminal going away (its window closed, the SSH
 * session ended): Lanyard stops gracefully, as for SIGTERM. Otherwise (systemd's `ExecReload`, `kill -HUP`,
 * an orchestrator) it asks for the configuration to be reloaded: src/cluster/reload.ts with worker
 * processes; a process serving alone cannot, and says so.
 */
export function onHangUp(out: { isTTY?: boolean }, o: { stop: () => void; reload: () => void }): void {
  process.on('SIGHUP', () => (out.isTTY ? o.stop() : o.reload()));
}
