/** A SIGHUP that came before onHangUp was set up (Lanyard starting), and the listener that noted it. */
let early: { signalled: boolean; listener: () => void } | undefined;

/**
 * First thing when serving: until onHangUp is set up, a SIGHUP is noted rather than left to its default
 * action (which would kill Lanyard mid-start, silently), and acted on once it is.
 */
export function holdHangUps(): void {
  const held = { signalled: false, listener: () => { held.signalled = true; } };
  early = held;
  process.on('SIGHUP', held.listener);
}

/**
 * SIGHUP means one of two things. When standard output is a terminal it is the terminal going away (its
 * window closed, the SSH session ended): Lanyard stops gracefully, as for SIGTERM. Otherwise (systemd's
 * `ExecReload`, `kill -HUP`, an orchestrator) it asks for the configuration to be reloaded:
 * src/cluster/reload.ts with worker processes; a process serving alone cannot, and says so.
 */
export function onHangUp(out: { isTTY?: boolean }, o: { stop: () => void; reload: () => void }): void {
  const act = () => (out.isTTY ? o.stop() : o.reload());
  process.on('SIGHUP', act);
  if (!early) return;
  process.off('SIGHUP', early.listener);
  const missed = early.signalled;
  early = undefined;
  if (missed) act();
}
